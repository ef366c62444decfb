import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../src/domain/errors.ts';
import { ReadBudget } from '../../src/http/read-budget.ts';

/** A reply as the budget uses it: headers set, and its response closing. */
function fakeReply() {
  const headers: Record<string, string> = {};
  const raw = new EventEmitter();
  const reply = {
    header(name: string, value: string) {
      headers[name] = value;
      return reply;
    },
    raw,
  };
  return { reply: reply as unknown as FastifyReply, headers, close: () => raw.emit('close') };
}

test('reads past the budget are refused with 429 and a wait until earlier ones are sent', () => {
  const budget = new ReadBudget(100);
  const first = fakeReply();
  const second = fakeReply();
  const third = fakeReply();
  budget.admitFor(first.reply)(60);
  budget.admitFor(second.reply)(40);
  assert.equal(budget.bytesInFlight, 100);
  assert.throws(
    () => budget.admitFor(third.reply)(1),
    (error) => error instanceof DomainError && error.code === 'RATE_LIMIT_EXCEEDED',
  );
  assert.equal(third.headers['x-ratelimit-reset'], '1');
  assert.equal(third.headers['retry-after'], '1');
  first.close();
  assert.equal(budget.bytesInFlight, 40);
  budget.admitFor(third.reply)(60);
  second.close();
  third.close();
  assert.equal(budget.bytesInFlight, 0);
});

test('a read alone is admitted whatever its size', () => {
  const budget = new ReadBudget(100);
  const large = fakeReply();
  budget.admitFor(large.reply)(1000);
  assert.equal(budget.bytesInFlight, 1000);
  large.close();
  assert.equal(budget.bytesInFlight, 0);
});
