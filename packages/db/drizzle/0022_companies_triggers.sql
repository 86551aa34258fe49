-- Custom migration (drizzle-kit generate --custom): the updated_at trigger for companies.
CREATE TRIGGER companies_set_updated_at BEFORE UPDATE ON companies
  FOR EACH ROW EXECUTE FUNCTION fleet_set_updated_at();
