-- Custom migration (drizzle-kit generate --custom): every change to a user row tells the
-- api instances listening on 'fleet_users' which api hash to stop trusting from their
-- cache of authenticated users. Sent at commit, so a listener never drops a user and
-- reads back the row from before the change.
CREATE FUNCTION fleet_notify_user_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('fleet_users', OLD.api_hash);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_notify_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION fleet_notify_user_changed();
