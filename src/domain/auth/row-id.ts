/** Role and token ids are bigint identities; any other string names no row and must not reach SQL. */
export function isRowId(id: string): boolean {
  return /^\d{1,18}$/.test(id);
}
