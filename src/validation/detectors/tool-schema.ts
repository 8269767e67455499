import { validateToolArguments } from "../../tools/validate-arguments.ts";
import type { Detector } from "./detector.ts";

/**
 * `tool_schema_validation` (`pre_execution`, always on): the call's named
 * arguments against the tool's JSON Schema — required fields, types, enums,
 * ranges, unknown properties — every error listed.
 */
export const detectSchemaErrors: Detector = ({ input, tools }) => {
  const call = input.toolCall;
  if (!call) return undefined;
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) {
    if (tools.length === 0) return undefined;
    return {
      reason: `there is no tool named '${call.name}'; the tools are ${tools.map((candidate) => candidate.name).join(", ")}`,
      slots: { tool_name: call.name, errors: `- no tool named '${call.name}'`, tool_schema: tools.map((candidate) => candidate.name).join(", ") },
    };
  }
  const check = validateToolArguments(tool, call.arguments);
  if (check.ok) return undefined;
  return {
    reason: check.message,
    slots: { tool_name: tool.name, errors: check.errors.map((error) => `- ${error.message}`).join("\n"), tool_schema: JSON.stringify(tool.parameters, null, 2) },
  };
};
