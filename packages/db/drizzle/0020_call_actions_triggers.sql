-- Custom migration (drizzle-kit generate --custom): the updated_at trigger for call_actions.
CREATE TRIGGER call_actions_set_updated_at BEFORE UPDATE ON call_actions
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
