/* A task and a signature image as tests send them: shared by the api matrices and the standalone Swagger sweep. */

/** The smallest PNG: a 1×1 pixel. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/** A valid add_task body for the device. */
export const taskBody = (device: number, title = "Task") => ({
  device_id: device,
  title,
  comment: "Ring twice",
  priority: 2,
  status: 1,
  pickup_address: "Depot",
  pickup_address_lat: 54.6872,
  pickup_address_lng: 25.2797,
  pickup_time_from: "2030-05-01 08:00:00",
  pickup_time_to: "2030-05-01 10:00:00",
  delivery_address: "Customer",
  delivery_address_lat: 54.8985,
  delivery_address_lng: 23.9036,
  delivery_time_from: "2030-05-01 12:00:00",
  delivery_time_to: "2030-05-01 14:00:00",
  invoice_number: "INV-1",
});
