import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddReportResponseSchema, GenerateReportResponseSchema, GetReportsResponseSchema, OkSchema } from "@fleet/contracts";
import { claimReportJobs } from "@fleet/db";
import { createGeocoder } from "@fleet/geocoder";
import { createSmtpMailer } from "@fleet/mail";
import { hasService, smtpTestServer, type SmtpTestServer } from "@fleet/testkit";
import { TrackBuilder } from "@fleet/trips/testing";
import { planReportRuns, runScheduledReports, type ReportScheduleDeps } from "../src/domain/report-schedule.js";
import { slots } from "../src/lib/slots.js";
import { liveRecordCache } from "../src/lib/live-records.js";
import { ApiHarness, ok, type RecordsStore } from "./fixture.js";

/*
 * Scheduled reports, mailed through a real SMTP server: each run once, whichever instance
 * takes it, and once again after an instance died holding it (its lease ended).
 */

const DAY = 86_400_000;
const MINUTE = 60_000;
/**
 * Noon UTC two days from now: the scheduler's clock for a run, far enough from midnight that
 * its ticks a few minutes apart stay on one day (run near midnight, a tick past it found the
 * next day's run due and mailed it too).
 */
const NOON_IN_TWO_DAYS = () => Math.floor(Date.now() / DAY) * DAY + 2 * DAY + 12 * 60 * MINUTE;

function describeSchedule(kind: RecordsStore): void {
  describe(`scheduled reports on ${kind}, mailed through a real SMTP server`, () => {
    let smtp: SmtpTestServer;
    let h: ApiHarness;
    let deps: ReportScheduleDeps;

    beforeAll(async () => {
      smtp = await smtpTestServer();
      const quiet = { info: () => undefined, warn: () => undefined };
      const mailer = createSmtpMailer({ url: smtp.url, from: "Fleet <no-reply@fleet.test>", logger: quiet });
      h = new ApiHarness(kind, { mailer });
      await h.open();
      deps = { db: h.db, history: h.history, geocoder: createGeocoder({ logger: quiet }), records: liveRecordCache(h.db, h.live, { maxDevices: 1000 }), mailer, slots: slots(1), logger: quiet };
    });
    afterAll(async () => {
      await h.close();
      await smtp.close();
    });

    /**
     * A user on UTC whose device drove "yesterday", with a daily report of it. The scheduler is
     * run two days ahead of the clock, so the report is older than the day it reports on.
     */
    async function scheduled(email: string, now: number) {
      const user = await h.newUser();
      const device = await h.addDevice(user, { name: "Truck 9", min_moving_speed: 6 });
      const yesterday = Math.floor(now / DAY) * DAY - DAY;
      await h.history.insert(new TrackBuilder(yesterday + 8 * 3_600_000, { deviceId: device, firstId: device * 1_000_000 }).fix().drive(300).stand(600).drive(300).rows);
      const body = { title: "Daily fleet", type: 3, format: "xls", devices: [device], stops: 5, daily: 1, weekly: 0, email };
      const { id } = ok(await h.post("/add_report", { user, body }), AddReportResponseSchema);
      return { user, device, report: id, yesterday };
    }

    const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

    it("mails yesterday's report once, as an attachment, though an instance died holding the run", async () => {
      const now = NOON_IN_TWO_DAYS();
      const email = "dispatch-1@example.com";
      const { user, report, yesterday } = await scheduled(email, now);
      // Instance A writes the run and takes it, then dies before mailing it.
      await planReportRuns(deps, now);
      const taken = await claimReportJobs(h.db, { limit: 100, leaseMs: 10 * MINUTE, now: new Date(now) });
      expect(taken.filter((j) => j.reportId === report).map((j) => [j.kind, j.periodFrom.getTime(), j.periodTo.getTime()])).toEqual([["daily", yesterday, yesterday + DAY]]);
      // Instance B, meanwhile: the run is held, nothing is mailed twice.
      await runScheduledReports(deps, now + MINUTE);
      expect(mailsTo(email)).toEqual([]);
      // Once A's lease has ended, B takes the run and mails it.
      await runScheduledReports(deps, now + 11 * MINUTE);
      const mail = await smtp.mailTo(email);
      const day = new Date(yesterday).toISOString().slice(0, 10);
      expect(mail.subject).toBe(`Daily fleet: daily report, ${day}`);
      const [file] = mail.parsed.attachments;
      expect([file!.filename, file!.contentType]).toEqual(["Daily fleet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]);
      expect(file!.content.subarray(0, 2).toString("latin1")).toBe("PK");
      // Later ticks, on any instance, mail nothing again.
      await runScheduledReports(deps, now + 12 * MINUTE);
      await runScheduledReports(deps, now + 13 * MINUTE);
      expect(mailsTo(email)).toHaveLength(1);
      const listed = ok(await h.get("/get_reports", { user }), GetReportsResponseSchema).items.reports.data.find((r) => r.id === report);
      expect(listed?.daily_email_sent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it("mails a report generated with send_to_email, the file attached, once it is made", async () => {
      const now = Date.now();
      const { user, device, yesterday } = await scheduled("unused@example.com", now);
      const day = new Date(yesterday).toISOString().slice(0, 10);
      const body = { title: "Ad hoc", type: 1, format: "pdf", devices: [device], date_from: day, date_to: day, send_to_email: "ad-hoc@example.com" };
      ok(await h.post("/generate_report", { user, body }), GenerateReportResponseSchema);
      const mail = await smtp.mailTo("ad-hoc@example.com");
      expect(mail.subject).toBe(`Ad hoc: report, ${day}`);
      const [file] = mail.parsed.attachments;
      expect([file!.filename, file!.contentType, file!.content.subarray(0, 5).toString("latin1")]).toEqual(["Ad hoc.pdf", "application/pdf", "%PDF-"]);
    });

    it("mails nothing for a report no longer scheduled, and each run once when two instances tick together", async () => {
      const now = NOON_IN_TWO_DAYS();
      const off = await scheduled("dispatch-2@example.com", now);
      ok(await h.post("/edit_report", { user: off.user, body: { id: off.report, title: "Daily fleet", type: 3, format: "xls", devices: [off.device], stops: 5, daily: 0, weekly: 0, email: "" } }), OkSchema);
      await scheduled("dispatch-3@example.com", now);
      await Promise.all([runScheduledReports(deps, now), runScheduledReports(deps, now)]);
      await smtp.mailTo("dispatch-3@example.com");
      expect(mailsTo("dispatch-2@example.com")).toEqual([]);
      expect(mailsTo("dispatch-3@example.com")).toHaveLength(1);
    });
  });
}

describeSchedule("pglite");
describe.runIf(hasService("postgres"))("postgres", () => describeSchedule("postgres"));
