/** The 422 message for a field given in the query and in the body with different values. */
export const differsMessage = (field: string) => `The ${field.replaceAll("_", " ")} in the query and in the body differ.`;

/**
 * A value clients may send in the query or in the body (the vendor's clients do both).
 * Given in both places the two must agree; given in neither, it is missing. The error is
 * the message for that field in a 422 `{status: 0, errors}`.
 */
export function queryOrBody<T>(field: string, inQuery: T | undefined, inBody: T | undefined): { value: T; error?: undefined } | { error: string } {
  const name = field.replaceAll("_", " ");
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) return { error: differsMessage(field) };
  const value = inQuery ?? inBody;
  return value === undefined ? { error: `The ${name} field is required.` } : { value };
}
