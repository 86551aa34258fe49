-- Custom migration (drizzle-kit generate --custom): drizzle-kit does not model triggers.
-- updated_at is what the tracker's device cache syncs by, so it must move on every change,
-- whichever code path (query module, admin SQL, a later migration) makes it.
-- clock_timestamp() rather than now(): now() is the transaction's start, which can lie far
-- before the commit and so before a poll that already ran.
CREATE OR REPLACE FUNCTION fleet_set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := clock_timestamp();
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_set_updated_at BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
CREATE TRIGGER devices_set_updated_at BEFORE UPDATE ON devices
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
--> statement-breakpoint
-- A device's owners (user_devices) are part of what the tracker caches, so a change to the
-- pivot touches the device too. The UPDATE below fires devices_set_updated_at.
CREATE OR REPLACE FUNCTION fleet_touch_device_from_pivot() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER user_devices_touch_device AFTER INSERT OR UPDATE OR DELETE ON user_devices
  FOR EACH ROW EXECUTE FUNCTION fleet_touch_device_from_pivot();
