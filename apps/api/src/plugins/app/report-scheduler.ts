import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { runScheduledReports, type ReportScheduleDeps } from "../../domain/report-schedule.js";

/**
 * Mails scheduled reports from this api instance every `reportScheduleEveryMs`: every instance
 * may run it, each run being taken by one (domain/report-schedule.ts). Off unless set, so the
 * tests' apps run it only when they ask; a tick under way is waited for on close.
 */
export default fp(
  async function reportScheduler(app: FastifyInstance) {
    const everyMs = app.services.settings.reportScheduleEveryMs ?? 0;
    if (everyMs <= 0) return;
    const { db, history, liveRecords, mailer, geocoder, reportSlots } = app.services;
    const deps: ReportScheduleDeps = { db, history, geocoder, records: liveRecords, mailer, slots: reportSlots, logger: app.log };
    let running: Promise<unknown> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const tick = () => {
      // A tick slower than the interval is not overlapped: the next one waits for the one after.
      running ??= runScheduledReports(deps)
        .catch((err: unknown) => app.log.warn({ err }, "the report scheduler's tick failed; the next one tries again"))
        .finally(() => (running = undefined));
    };
    app.addHook("onReady", async () => {
      timer = setInterval(tick, everyMs);
      timer.unref();
      tick();
    });
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: "report-scheduler", dependencies: ["services"] },
);
