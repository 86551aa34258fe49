-- Custom migration (drizzle-kit generate --custom): updated_at triggers for the tables of 0004.
CREATE TRIGGER geofence_groups_set_updated_at BEFORE UPDATE ON geofence_groups
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER geofences_set_updated_at BEFORE UPDATE ON geofences
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER routes_set_updated_at BEFORE UPDATE ON routes
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER user_map_icons_set_updated_at BEFORE UPDATE ON user_map_icons
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER custom_events_set_updated_at BEFORE UPDATE ON custom_events
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER alerts_set_updated_at BEFORE UPDATE ON alerts
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER gprs_templates_set_updated_at BEFORE UPDATE ON gprs_templates
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER sms_templates_set_updated_at BEFORE UPDATE ON sms_templates
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER sent_commands_set_updated_at BEFORE UPDATE ON sent_commands
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER tasks_set_updated_at BEFORE UPDATE ON tasks
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER task_statuses_set_updated_at BEFORE UPDATE ON task_statuses
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER reports_set_updated_at BEFORE UPDATE ON reports
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
