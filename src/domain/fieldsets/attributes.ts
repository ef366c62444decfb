/** Attributes a client may send, already shape-checked by the HTTP layer. */
export type FieldsetAttributes = Partial<{
  title: string;
  hint: string | null;
  position: number;
  collapsible: boolean;
  start_collapsed: boolean;
}>;

export type FieldsetInput = {
  /** A client-chosen id (create only). */
  id?: string;
  attributes: FieldsetAttributes;
};
