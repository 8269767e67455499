/**
 * A repository path does not name a readable directory (`createNavTools`,
 * `runSession({ repo })`, the MCP server's `path`). `repo` is the path as given.
 * A `TypeError`, as a bad argument.
 */
export class RepositoryNotFoundError extends TypeError {
  override readonly name = "RepositoryNotFoundError";
  /** The path as it was given. */
  readonly repo: string;

  constructor({ repo, cause }: { repo: string; cause?: unknown }) {
    super(`'${repo}' is not a readable directory; give the path of a repository folder`, cause === undefined ? undefined : { cause });
    this.repo = repo;
  }
}
