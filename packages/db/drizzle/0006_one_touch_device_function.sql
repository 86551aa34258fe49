-- Custom migration (drizzle-kit generate --custom): 0003 gave sensors a copy of 0001's
-- fleet_touch_device_from_pivot under its own name. Both touch the device of the row that
-- changed, so one function, named for that, serves both triggers.
ALTER FUNCTION fleet_touch_device_from_pivot() RENAME TO fleet_touch_row_device;
--> statement-breakpoint
DROP TRIGGER sensors_touch_device ON sensors;
--> statement-breakpoint
CREATE TRIGGER sensors_touch_device AFTER INSERT OR UPDATE OR DELETE ON sensors
  FOR EACH ROW EXECUTE FUNCTION fleet_touch_row_device();
--> statement-breakpoint
DROP FUNCTION fleet_touch_device_from_sensor();
