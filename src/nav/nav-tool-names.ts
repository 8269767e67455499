/** The names of the six navigation tools, in the order they are documented (a module of its own, so naming them loads no grammar). */
export const NAV_TOOL_NAMES = ["nav_info", "nav_ls", "nav_outline", "nav_read", "nav_search", "nav_refs"] as const;
