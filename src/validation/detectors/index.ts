import { detectCredentials } from "./credential-redaction.ts";
import type { Detector } from "./detector.ts";
import { detectEmptyPromise } from "./empty-promise.ts";
import { detectFabricatedOutput } from "./fabricated-output.ts";
import { detectFinalAfterFailure } from "./final-after-failure.ts";
import { detectPhantomToolResult } from "./phantom-tool-result.ts";
import { detectRepetitionLoop } from "./repetition-loop.ts";
import { detectSchemaErrors } from "./tool-schema.ts";
import { detectUngroundedCitation } from "./ungrounded-citation.ts";
import { detectWorkflowSpawn } from "./workflow-spawn.ts";

export type { Detection, Detector, DetectorContext } from "./detector.ts";

/** The deterministic detectors, by name (custom hooks name them in `detector`). */
export const DETECTORS: Readonly<Record<string, Detector>> = {
  tool_schema_validation: detectSchemaErrors,
  phantom_tool_result: detectPhantomToolResult,
  fabricated_output: detectFabricatedOutput,
  empty_promise: detectEmptyPromise,
  workflow_spawn: detectWorkflowSpawn,
  final_after_failure: detectFinalAfterFailure,
  repetition_loop: detectRepetitionLoop,
  ungrounded_citation: detectUngroundedCitation,
  credential_redaction: detectCredentials,
};
