-- Custom migration (drizzle-kit generate --custom): the updated_at trigger for sharings.
CREATE TRIGGER sharings_set_updated_at BEFORE UPDATE ON sharings
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
