import type { FastifyPluginAsync } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import bodyParsers from "./plugins/external/body-parsers.js";
import openapi from "./plugins/external/openapi.js";
import auth from "./plugins/app/auth.js";
import errors from "./plugins/app/errors.js";
import inputRules from "./plugins/app/input-rules.js";
import authLimits from "./plugins/app/auth-limits.js";
import rateLimitStore from "./plugins/external/rate-limit.js";
import requestLog from "./plugins/app/request-log.js";
import reportScheduler from "./plugins/app/report-scheduler.js";
import services, { type ServicesOptions } from "./plugins/app/services.js";
import { loginRoutes, userRoutes } from "./routes/auth.js";
import { healthRoutes } from "./routes/health.js";
import { mapImageRoutes } from "./routes/map-images.js";
import { accountRoutes } from "./routes/accounts.js";
import { adminRoutes } from "./routes/admin.js";
import { adminCompanyRoutes } from "./routes/admin-companies.js";
import { deviceRoutes } from "./routes/devices.js";
import { driverRoutes } from "./routes/drivers.js";
import { sensorRoutes } from "./routes/sensors.js";
import { serviceRoutes } from "./routes/services.js";
import { setupRoutes } from "./routes/setup.js";
import { geofenceRoutes } from "./routes/geofences.js";
import { mapRouteRoutes } from "./routes/map-routes.js";
import { mapIconRoutes } from "./routes/map-icons.js";
import { deviceGroupRoutes } from "./routes/device-groups.js";
import { mapRouteGroupRoutes } from "./routes/map-route-groups.js";
import { mapIconGroupRoutes } from "./routes/map-icon-groups.js";
import { customEventRoutes } from "./routes/custom-events.js";
import { alertRoutes } from "./routes/alerts.js";
import { templateRoutes } from "./routes/templates.js";
import { commandRoutes } from "./routes/commands.js";
import { taskRoutes } from "./routes/tasks.js";
import { deviceMediaRoutes } from "./routes/device-media.js";
import { callActionRoutes } from "./routes/call-actions.js";
import { sharedViewRoutes, sharingRoutes } from "./routes/sharing.js";
import { reportDownloadRoutes, reportRoutes } from "./routes/reports.js";
import { historyMessageRoutes } from "./routes/history-messages.js";
import { eventRoutes } from "./routes/events.js";
import { historyRoutes } from "./routes/history.js";
import { addressRoutes } from "./routes/addresses.js";

export type ApiAppOptions = ServicesOptions;

/**
 * The API app as a plugin, mounted under /api by its server and by the all-in-one
 * process. Plugins load in three layers: external, ours, then routes.
 */
export const apiApp: FastifyPluginAsync<ApiAppOptions> = async (root, opts) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(requestLog);
  await app.register(errors);
  await app.register(bodyParsers);
  await app.register(openapi, { version: opts.settings.version });
  await app.register(rateLimitStore, { redisUrl: opts.limitsRedisUrl });
  await app.register(services, opts);
  await app.register(auth);
  await app.register(inputRules);
  await app.register(authLimits, { limits: opts.settings.authLimits });
  await app.register(reportScheduler);

  await app.register(healthRoutes);
  await app.register(mapImageRoutes);
  await app.register(loginRoutes);
  await app.register(accountRoutes);
  await app.register(reportDownloadRoutes);
  await app.register(sharedViewRoutes);
  await app.register(async (authed) => {
    authed.addHook("preValidation", authed.authenticate);
    await authed.register(userRoutes);
    await authed.register(deviceRoutes);
    await authed.register(setupRoutes);
    await authed.register(driverRoutes);
    await authed.register(sensorRoutes);
    await authed.register(serviceRoutes);
    await authed.register(geofenceRoutes);
    await authed.register(mapRouteRoutes);
    await authed.register(mapIconRoutes);
    await authed.register(deviceGroupRoutes);
    await authed.register(mapRouteGroupRoutes);
    await authed.register(mapIconGroupRoutes);
    await authed.register(customEventRoutes);
    await authed.register(alertRoutes);
    await authed.register(templateRoutes);
    await authed.register(commandRoutes);
    await authed.register(taskRoutes);
    await authed.register(deviceMediaRoutes);
    await authed.register(reportRoutes);
    await authed.register(historyMessageRoutes);
    await authed.register(eventRoutes);
    await authed.register(historyRoutes);
    await authed.register(addressRoutes);
    await authed.register(sharingRoutes);
    await authed.register(callActionRoutes);
    await authed.register(adminRoutes);
    await authed.register(adminCompanyRoutes);
  });
};
