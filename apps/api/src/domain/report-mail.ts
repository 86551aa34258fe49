import { findReportType } from "@fleet/contracts";
import type { Mailer } from "@fleet/mail";
import type { RenderedReport } from "@fleet/reports";

/** A file name from the report's title: what a file system takes, and its extension. */
export const reportFileName = (title: string, extension: string) => `${title.replace(/[^\p{L}\p{N} ._-]+/gu, "_").trim().slice(0, 100) || "report"}.${extension}`;

/**
 * Mails a made report to the definition's addresses, the file attached: a report generated
 * with `send_to_email`, or a scheduled one (`kind`). `period` is how the subject names it.
 */
export function mailReport(mailer: Pick<Mailer, "send">, report: { title: string; email: string; type: number }, file: RenderedReport, period: string, kind?: "daily" | "weekly") {
  return mailer.send({
    to: report.email.split(","),
    subject: `${report.title}: ${kind ? `${kind} ` : ""}report, ${period}`,
    text: `${findReportType(report.type)?.name ?? "Report"} "${report.title}" for ${period} is attached.`,
    attachments: [{ filename: reportFileName(report.title, file.extension), content: file.body, contentType: file.contentType }],
  });
}
