export { toWireResult, type WireResult } from '../schemas/result';

/** The JSON an error is printed as. `param` is null when no single field is at fault (e.g. bad JSON). */
export interface WireError {
  error: { code: string; message: string; param: string | null; line?: number };
}


export function toWireError(code: string, message: string, param: string | null, line?: number): WireError {
  return { error: line === undefined ? { code, message, param } : { code, message, param, line } };
}
