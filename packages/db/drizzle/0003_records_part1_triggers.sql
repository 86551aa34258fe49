-- Custom migration (drizzle-kit generate --custom): triggers for the tables of 0002.
CREATE TRIGGER drivers_set_updated_at BEFORE UPDATE ON drivers
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER sensors_set_updated_at BEFORE UPDATE ON sensors
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER services_set_updated_at BEFORE UPDATE ON services
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
-- The tracker decides engine on/off with the device's ignition, acc or engine sensor, so a
-- sensor change must reach its device cache, which syncs by devices.updated_at.
CREATE OR REPLACE FUNCTION fleet_touch_device_from_sensor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE devices SET updated_at = clock_timestamp() WHERE id = OLD.device_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.device_id <> OLD.device_id) THEN
    UPDATE devices SET updated_at = clock_timestamp() WHERE id = NEW.device_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sensors_touch_device AFTER INSERT OR UPDATE OR DELETE ON sensors
  FOR EACH ROW EXECUTE FUNCTION fleet_touch_device_from_sensor();
