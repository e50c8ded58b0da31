/** The checks, in the order their findings are reported. */
import type { Check } from "./check.js";
import { envelopeCheck } from "./envelope.js";
import { errorsCheck } from "./errors.js";
import { httpCheck } from "./http.js";
import { paginationCheck } from "./pagination.js";
import { proofsCheck } from "./proofs.js";
import { schemaCheck } from "./schema.js";
import { semanticsCheck } from "./semantics.js";

export const checks: readonly Check[] = [httpCheck, envelopeCheck, schemaCheck, errorsCheck, paginationCheck, semanticsCheck, proofsCheck];
export type { Check, CheckContext, Target } from "./check.js";
