/** The server an `OpenAICompatibleModel` talks to when no base URL is given. Kept free of imports so that light callers need not load the `openai` package. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
