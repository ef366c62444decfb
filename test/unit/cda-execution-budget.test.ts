import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ExecutionBudget,
  MARKDOWN_CHARS_LIMIT,
  MARKDOWN_SLICE,
  MARKDOWN_TEXT_LIMIT,
} from '../../src/cda/limits/execution-budget.ts';

// A delivery query's Markdown: its texts render one after another, with a turn of the
// event loop between slices of what it renders, and each text and each query has a bound.

const later = () => new ExecutionBudget(Date.now() + 60_000);
const text = (length: number) => 'x'.repeat(length);

test('texts asked for together render in turn, with a turn of the event loop after each slice', async () => {
  const budget = later();
  const log: string[] = [];
  const render = (label: string) => (value: string) => {
    log.push(label);
    return `<p>${value.length}</p>`;
  };
  // A turn of the event loop logs itself: it runs before anything that waits for one.
  setImmediate(() => log.push('turn'));
  // As GraphQL resolves a page's fields: every render asked for before any has run.
  const pages = await Promise.all([
    budget.renderMarkdown(text(MARKDOWN_SLICE - 10), render('a')),
    budget.renderMarkdown(text(10), render('b')),
    budget.renderMarkdown(text(10), render('c')),
    budget.renderMarkdown(text(10), render('d')),
  ]);
  assert.deepEqual(pages, [`<p>${MARKDOWN_SLICE - 10}</p>`, '<p>10</p>', '<p>10</p>', '<p>10</p>']);
  assert.deepEqual(log, ['a', 'b', 'turn', 'c', 'd'], 'a slice rendered, then a turn');
});

test('one text renders up to its bound; a longer one fails, and the texts after it render', async () => {
  const budget = later();
  assert.equal(await budget.renderMarkdown(text(MARKDOWN_TEXT_LIMIT), () => 'ok'), 'ok');
  const [refused, next] = await Promise.allSettled([
    budget.renderMarkdown(text(MARKDOWN_TEXT_LIMIT + 1), () => 'rendered'),
    budget.renderMarkdown(text(5), () => 'next'),
  ]);
  assert.equal(refused?.status, 'rejected');
  assert.match(
    String((refused as PromiseRejectedResult).reason),
    new RegExp(`longer than the ${MARKDOWN_TEXT_LIMIT} that render as Markdown`),
  );
  assert.deepEqual(next, { status: 'fulfilled', value: 'next' });
});

test('a query renders up to its bound of Markdown in all; past it the next text fails', async () => {
  const budget = later();
  for (let spent = 0; spent < MARKDOWN_CHARS_LIMIT; spent += MARKDOWN_SLICE)
    await budget.renderMarkdown(text(MARKDOWN_SLICE), () => '');
  await assert.rejects(
    budget.renderMarkdown(text(1), () => ''),
    new RegExp(`Query renders more than ${MARKDOWN_CHARS_LIMIT} characters of Markdown`),
  );
});

test('a query past its time renders no more Markdown once it yields', async () => {
  const budget = new ExecutionBudget(Date.now() - 1);
  await budget.renderMarkdown(text(MARKDOWN_SLICE), () => '');
  await assert.rejects(
    budget.renderMarkdown(text(1), () => ''),
    /exceeded the time limit/,
  );
});
