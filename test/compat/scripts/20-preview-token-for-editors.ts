// A common hand-written setup step: look the project's `Editor` role up by name (new
// DatoCMS projects have `Admin` and `Editor`) and give the frontend a read-only token
// for published and draft content.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';

export default async function (client: Client) {
  const roles = await client.roles.list();
  const editor = roles.find((role) => role.name === 'Editor');
  if (!editor) throw new Error('No "Editor" role in this project');

  await client.accessTokens.create({
    name: 'Frontend preview',
    can_access_cda: true,
    can_access_cda_preview: true,
    can_access_cma: false,
    role: { type: 'role', id: editor.id },
  });
}

export async function expect(client: Client) {
  const roles = await client.roles.list();
  assert.deepEqual(roles.map((role) => role.name).sort(), ['Admin', 'Editor']);
  const editor = roles.find((role) => role.name === 'Editor');
  const token = (await client.accessTokens.list()).find(
    (candidate) => candidate.name === 'Frontend preview',
  );
  assert.ok(token, 'the preview token exists');
  assert.equal(token.can_access_cda, true);
  assert.equal(token.can_access_cda_preview, true);
  assert.equal(token.can_access_cma, false);
  assert.deepEqual(token.role, { type: 'role', id: editor?.id });
}
