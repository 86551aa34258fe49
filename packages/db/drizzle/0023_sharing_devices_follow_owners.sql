-- Custom migration (drizzle-kit generate --custom): a device the user no longer has leaves the
-- user's sharing links for good, whichever write took it (destroy_device, an administrator,
-- the user's deletion), so giving it back later does not publish it again unasked.
CREATE FUNCTION fleet_unshare_left_device() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sharing_devices sd USING sharings s
    WHERE sd.sharing_id = s.id AND s.user_id = OLD.user_id AND sd.device_id = OLD.device_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER user_devices_unshare AFTER DELETE ON user_devices
  FOR EACH ROW EXECUTE FUNCTION fleet_unshare_left_device();
