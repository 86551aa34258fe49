import { expect, it } from "vitest";
import { fetchSwaggerUi } from "@fleet/testkit";
import { describeApi } from "./fixture.js";

/** Every route the API serves, as the OpenAPI document must list it. */
const ROUTES = [
  "post /login",
  "get /get_user_data",
  "get /add_device_data",
  "post /add_device",
  "get /get_devices",
  "get /get_devices_latest",
  "post /admin/client",
  "get /admin/clients",
  "get /admin/unregistered_devices",
  "get /admin/dead_letters",
  "post /admin/dead_letters/republish",
  "get /edit_setup_data",
  "post /edit_setup",
  "post /change_password",
  "get /edit_device_data",
  "post /edit_device",
  "get /destroy_device",
  "get /change_active_device",
  "get /get_user_drivers",
  "get /add_user_driver_data",
  "post /add_user_driver",
  "get /edit_user_driver_data",
  "post /edit_user_driver",
  "get /destroy_user_driver",
  "get /add_sensor_data",
  "post /add_sensor",
  "get /edit_sensor_data",
  "post /edit_sensor",
  "get /destroy_sensor",
  "get /get_sensors",
  "get /add_service_data",
  "post /add_service",
  "get /edit_service_data",
  "post /edit_service",
  "get /destroy_service",
  "get /get_services",
  "post /change_active_device",
  "get /get_geofences",
  "post /add_geofence",
  "post /edit_geofence",
  "get /destroy_geofence",
  "get /change_active_geofence",
  "post /change_active_geofence",
  "get /geofences_groups",
  "post /geofences_groups/store",
  "put /geofences_groups/update/{id}",
  "post /geofences_groups/update/{id}",
  "get /geofences_groups/destroy/{id}",
  "get /point_in_geofences",
  "get /devices_groups",
  "post /devices_groups/store",
  "put /devices_groups/update/{id}",
  "post /devices_groups/update/{id}",
  "get /devices_groups/destroy/{id}",
  "get /routes_groups",
  "post /routes_groups/store",
  "put /routes_groups/update/{id}",
  "post /routes_groups/update/{id}",
  "get /routes_groups/destroy/{id}",
  "get /pois_groups",
  "post /pois_groups/store",
  "put /pois_groups/update/{id}",
  "post /pois_groups/update/{id}",
  "get /pois_groups/destroy/{id}",
  "get /get_routes",
  "post /add_route",
  "post /edit_route",
  "get /destroy_route",
  "get /change_active_route",
  "post /change_active_route",
  "get /get_map_icons",
  "get /get_user_map_icons",
  "post /add_map_icon",
  "post /edit_map_icon",
  "get /destroy_map_icon",
  "get /change_active_map_icon",
  "post /change_active_map_icon",
  "get /get_custom_events",
  "get /add_custom_event_data",
  "post /add_custom_event",
  "get /edit_custom_event_data",
  "post /edit_custom_event",
  "get /destroy_custom_event",
  "get /get_custom_events_by_device",
  "post /get_custom_events_by_device",
  "get /get_protocols",
  "get /get_alerts",
  "get /add_alert_data",
  "post /add_alert",
  "get /edit_alert_data",
  "post /edit_alert",
  "get /destroy_alert",
  "get /change_active_alert",
  "post /change_active_alert",
  "get /set_alert_devices",
  "post /set_alert_devices",
  "get /get_alerts_attributes",
  "get /get_alerts_commands",
  "post /get_alerts_commands",
  "get /get_alerts_summary",
  "get /devices/{device_id}/alerts",
  "post /devices/{device_id}/alerts/{alert_id}/time_period",
  "get /get_user_gprs_templates",
  "get /add_user_gprs_template_data",
  "post /add_user_gprs_template",
  "get /edit_user_gprs_template_data",
  "post /edit_user_gprs_template",
  "get /destroy_user_gprs_template",
  "get /get_user_gprs_message",
  "get /get_user_sms_templates",
  "get /add_user_sms_template_data",
  "post /add_user_sms_template",
  "get /edit_user_sms_template_data",
  "post /edit_user_sms_template",
  "get /destroy_user_sms_template",
  "get /get_user_sms_message",
  "get /send_command_data",
  "get /get_device_commands",
  "post /send_gprs_command",
  "post /send_sms_command",
  "get /get_tasks",
  "get /get_task/{id}",
  "post /add_task",
  "post /edit_task/{id}",
  "post /destroy_task",
  "get /get_task_signature/{taskStatusId}",
  "get /get_tasks_statuses",
  "get /get_tasks_priorities",
  "get /get_reports_types",
  "get /get_reports",
  "post /add_report",
  "post /edit_report",
  "get /destroy_report",
  "get /get_history",
  "get /get_events",
  "get /destroy_events",
  "get /get_events_by_protocol",
  "get /get_history_messages",
  "post /delete_history_positions",
  "get /export_history",
  "get /sharing",
  "post /sharing",
  "get /sharing/{id}",
  "put /sharing/{id}",
  "delete /sharing/{id}",
  "put /sharing/{id}/devices",
  "get /shared_devices",
  "get /call_actions",
  "post /call_actions/store",
  "get /call_actions/{id}",
  "put /call_actions/update/{id}",
  "delete /call_actions/destory/{id}",
  "get /call_actions/event_types",
  "get /call_actions/response_types",
  "put /admin/client",
  "post /admin/client/status",
  "delete /admin/client/{id}",
  "delete /admin/clients",
  "get /admin/client/{id}/devices",
  "get /admin/devices",
  "get /admin/device/{device}",
  "post /admin/device/{device}/user",
  "delete /admin/device/{device}/user",
  "post /admin/device/{device}/status",
  "post /admin/device/{device}/expiration",
  "get /admin/device/{device}/users",
  "get /admin/companies",
  "post /admin/companies",
  "get /admin/companies/{id}",
  "put /admin/companies/{id}",
  "delete /admin/companies/{id}",
];

describeApi("OpenAPI document", (h) => {
  it("is served at /api/docs/json and lists every route with its request and response schemas", async () => {
    const res = await h.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters?: unknown[] }>> };
    expect(doc.openapi).toMatch(/^3\./);
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path.replace(/^\/api/, "")}`));
    for (const r of ROUTES) expect(listed).toContain(r);
    const add = doc.paths["/api/add_device"]!.post!;
    expect(add.requestBody).toBeDefined();
    expect(Object.keys(add.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
    const latest = doc.paths["/api/get_devices_latest"]!.get!;
    expect(JSON.stringify(latest.parameters)).toContain('"time"');
  });

  it("serves a complete Swagger UI at /api/docs and /api/docs/: every asset and the spec it loads answer 200", async () => {
    const get = async (url: string) => {
      const res = await h.inject({ method: "GET", url });
      return { status: res.status, location: res.headers.location as string | undefined, body: res.text };
    };
    for (const start of ["/api/docs", "/api/docs/"]) {
      const ui = await fetchSwaggerUi(get, start);
      expect(ui.page).toBe("/api/docs/");
      expect(ui.fetched.map((f) => f.path)).toEqual(expect.arrayContaining(["/api/docs/static/swagger-ui.css", "/api/docs/static/swagger-ui-bundle.js", "/api/docs/static/swagger-initializer.js", "/api/docs/json"]));
      for (const f of ui.fetched) expect(f.status, `${start} → ${f.path}`).toBe(200);
      expect(JSON.parse(ui.fetched.find((f) => f.path === "/api/docs/json")!.body)).toHaveProperty("openapi");
    }
    // The redirect keeps the query and is relative, so it holds behind a proxy's path prefix too.
    const res = await h.inject({ method: "GET", url: "/api/docs?x=1" });
    expect([res.status, res.headers.location]).toEqual([302, "docs/?x=1"]);
  });

  it("answers GET /api/health with 200 {status: 1} without lang or user_api_hash, and leaves it out of the document", async () => {
    const res = await h.inject({ method: "GET", url: "/api/health" });
    expect([res.status, res.body]).toEqual([200, { status: 1 }]);
    const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain("/api/health");
  });
});
