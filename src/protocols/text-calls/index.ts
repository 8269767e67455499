export { readTextReply } from "./read-text-reply.ts";
export { renderTextResults } from "./render-text-results.ts";
export { textSystemPrompt, type TextPromptStyle } from "./text-prompt.ts";
