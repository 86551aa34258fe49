/* The task endpoints in the matrices. */
import { TaskResponseSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";
import { PNG_BASE64, taskBody } from "../task-body.js";

const PNG_DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

const post = (h: ApiHarness, user: TestUser, path: string, body: unknown, query?: Record<string, string | number>) => h.post(path, { user, body, ...(query ? { query } : {}) });

const idCases: IdCase[] = [
  { route: "get /get_task/{id}", call: (h, u, t) => h.get(`/get_task/${t.task}`, { user: u }) },
  { route: "post /add_task", call: (h, u, t) => post(h, u, "/add_task", taskBody(t.device, "Intruder")) },
  { route: "post /edit_task/{id}", call: (h, u, t) => post(h, u, `/edit_task/${t.task}`, { title: "Taken over", status: 3, status_comment: "Mine", signature: PNG_DATA_URL }) },
  { route: "post /edit_task/{id} (device_id)", call: (h, u, t, o) => post(h, u, `/edit_task/${o.task}`, { device_id: t.device }) },
  { route: "post /destroy_task", call: (h, u, t) => post(h, u, "/destroy_task", { id: t.task }) },
  { route: "post /destroy_task (query)", call: (h, u, t) => h.post("/destroy_task", { user: u, query: { id: t.task } }) },
  { route: "get /get_task_signature/{taskStatusId}", call: (h, u, t) => h.get(`/get_task_signature/${t.taskStatus}`, { user: u }) },
];

const listCases: ListCase[] = [
  { route: "get /get_tasks", call: (h, u) => h.get("/get_tasks", { user: u }) },
  { route: "get /get_tasks (filtered)", call: (h, u) => h.get("/get_tasks", { user: u, query: { search_invoice_number: "of A", search_time_from: "2000-01-01 00:00:00" } }) },
  { route: "get /get_tasks_statuses", call: (h, u) => h.get("/get_tasks_statuses", { user: u }) },
  { route: "get /get_tasks_priorities", call: (h, u) => h.get("/get_tasks_priorities", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_tasks": (o) => ({ query: { search_device_id: o.device, search_task_status: 2, search_time_from: "2030-01-01 00:00:00", search_time_to: "2030-12-31 23:59:59", search_invoice_number: "INV" } }),
  "get /get_task/{id}": (o) => ({ params: { id: o.task } }),
  "post /add_task": (o) => ({ body: taskBody(o.device) }),
  "post /edit_task/{id}": (o) => ({ params: { id: o.task }, body: { title: "Renamed", status: 4, status_comment: "Nobody home", signature: PNG_DATA_URL } }),
  "post /destroy_task": (o) => ({ body: { id: o.task } }),
  "get /get_task_signature/{taskStatusId}": (o) => ({ params: { taskStatusId: o.taskStatus } }),
  "get /get_tasks_statuses": () => ({}),
  "get /get_tasks_priorities": () => ({}),
};

/** A task of the user's device, moved on to "In progress" with a signature: its second status row is the one seeded. */
async function seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>> {
  const task = ok(await h.post("/add_task", { user, body: { ...taskBody(base.device, `Task of ${tag}`), invoice_number: `Invoice of ${tag}` } }), TaskResponseSchema).item.id;
  const edited = ok(await h.post(`/edit_task/${task}`, { user, body: { status: 2, status_comment: `Status of ${tag}`, signature: PNG_DATA_URL } }), TaskResponseSchema).item;
  return { task, taskStatus: edited.statuses.at(-1)!.id };
}

export const tasksGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Task of ${tag}`, `Invoice of ${tag}`, `Status of ${tag}`],
  idCases,
  listCases,
  valid,
};
