-- Custom migration (drizzle-kit generate --custom): updated_at triggers for the tables of 0008.
CREATE TRIGGER route_groups_set_updated_at BEFORE UPDATE ON route_groups
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER map_icon_groups_set_updated_at BEFORE UPDATE ON map_icon_groups
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
