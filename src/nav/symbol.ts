/** What a symbol is. Languages map their own constructs onto these kinds. */
export type SymbolKind =
  | "class"
  | "struct"
  | "interface"
  | "trait"
  | "type"
  | "enum"
  | "function"
  | "method"
  | "constructor"
  | "property"
  | "variable"
  | "constant"
  | "module"
  | "namespace"
  | "macro";

/**
 * One declaration found in a source file. Overloads are separate entries that
 * share a qualified name.
 */
export interface NavSymbol {
  /**
   * The qualified name, members dotted onto their container: `Parser.parseExpression`,
   * `Model.#classify`, `Shape.operator==`, `<Point as Display>.fmt` (never `::`).
   */
  readonly name: string;
  /** What the declaration is. */
  readonly kind: SymbolKind;
  /** First line (1-based), counting leading decorators and doc comments. */
  readonly startLine: number;
  /** Last line (1-based, inclusive). */
  readonly endLine: number;
  /** The line (1-based) where the symbol's own name is written. */
  readonly line: number;
  /** The column (1-based, in UTF-16 code units like a search match) where the name starts. */
  readonly column: number;
  /** The declaration up to its body, whitespace collapsed. */
  readonly signature: string;
  /** The first line of the doc comment or docstring, when there is one. */
  readonly doc?: string;
  /** The qualified name of the enclosing symbol; absent at top level. */
  readonly container?: string;
}
