/** Readable change paths: `result.value.items[].hash`, `params["odd key"]`, `result<anyOf 1>`, `x{}` (any key). */
export function segment(name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}
