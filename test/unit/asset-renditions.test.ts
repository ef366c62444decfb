import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { decideRange, notModified } from '../../src/assets/http-range.ts';
import { imgixName, imgixUrl } from '../../src/assets/imgix-params.ts';
import { planRendition } from '../../src/assets/plan.ts';
import { RenderQueue } from '../../src/assets/render-queue.ts';
import { RenditionCache } from '../../src/assets/rendition-cache.ts';
import { SingleFlight } from '../../src/assets/single-flight.ts';
import { parseTransform } from '../../src/assets/transform.ts';
import { DomainError } from '../../src/domain/errors.ts';

const LIMITS = { maxDimension: 8192, maxPixels: 40_000_000 };

function plan(query: string, width = 400, height = 300) {
  const transform = parseTransform(new URLSearchParams(query));
  assert.ok(transform, query);
  return planRendition(transform, { width, height }, LIMITS);
}

describe('imgix parameters in URLs', () => {
  test('GraphQL names become imgix names', () => {
    assert.equal(imgixName('fpX'), 'fp-x');
    assert.equal(imgixName('maxW'), 'max-w');
    assert.equal(imgixName('fillColor'), 'fill-color');
    assert.equal(imgixName('w'), 'w');
    assert.equal(imgixName('max-h'), 'max-h');
  });

  test('imgixUrl sets, replaces and sorts parameters, lists comma-joined, absent values dropped', () => {
    const url = imgixUrl('https://cdn.example.com/assets/1/2-a.jpg?w=10&dl=x', {
      w: 800,
      fpX: 0.25,
      auto: ['format', 'compress'],
      ar: '16:9',
      fit: 'crop',
      h: null,
      dl: undefined,
    });
    assert.equal(
      url,
      'https://cdn.example.com/assets/1/2-a.jpg?ar=16:9&auto=format,compress&fit=crop&fp-x=0.25&w=800',
    );
    assert.equal(imgixUrl('http://h/a.png', {}), 'http://h/a.png');
  });
});

describe('reading a transform', () => {
  test('no render parameter means the original', () => {
    assert.equal(parseTransform(new URLSearchParams('dl=a.jpg&txt=hi')), null);
  });

  test('defaults, fractions and aliases', () => {
    const transform = parseTransform(new URLSearchParams('w=0.5&fm=jpeg&auto=format,compress'));
    assert.deepEqual(transform?.w, { fraction: 0.5 });
    assert.equal(transform?.fm, 'jpg');
    assert.equal(transform?.fit, 'clip');
    assert.equal(transform?.autoFormat && transform.autoCompress, true);
    assert.deepEqual(transform?.fp, { x: 0.5, y: 0.5, z: 1 });
    assert.deepEqual(parseTransform(new URLSearchParams('bg=8000ff00'))?.bg, {
      alpha: 128 / 255,
      r: 0,
      g: 255,
      b: 0,
    });
  });

  test('a malformed value is refused naming its parameter', () => {
    for (const query of [
      'w=0',
      'h=1e9',
      'fit=zoom',
      'crop=middle',
      'fp-x=2',
      'fp-z=0.5',
      'rect=1,2,3',
      'blur=-3',
    ]) {
      assert.throws(
        () => parseTransform(new URLSearchParams(query)),
        (error) =>
          error instanceof DomainError &&
          error.code === 'INVALID_PARAMS' &&
          error.details.param === query.split('=')[0],
        query,
      );
    }
  });
});

describe('planning a rendition', () => {
  test('a focal point places the crop, clamped inside the image', () => {
    assert.deepEqual(plan('w=100&h=100&fit=crop&crop=focalpoint&fp-x=0&fp-y=0').region, {
      left: 0,
      top: 0,
      width: 300,
      height: 300,
    });
    assert.deepEqual(plan('w=100&h=100&fit=crop&crop=focalpoint&fp-x=0.9&fp-y=0.5').region, {
      left: 100,
      top: 0,
      width: 300,
      height: 300,
    });
    const zoomed = plan('w=100&h=100&fit=crop&crop=focalpoint&fp-x=0.5&fp-y=0.5&fp-z=3').region;
    assert.deepEqual(zoomed, { left: 150, top: 100, width: 100, height: 100 });
  });

  test('entropy and edges leave the crop to sharp; gravity words place it', () => {
    assert.equal(plan('w=50&h=50&fit=crop&crop=entropy').resize.strategy, 'entropy');
    assert.equal(plan('w=50&h=50&fit=crop&crop=edges').resize.strategy, 'attention');
    assert.deepEqual(plan('w=100&h=100&fit=crop&crop=bottom,right').region, {
      left: 100,
      top: 0,
      width: 300,
      height: 300,
    });
  });

  test('padding fits pad the canvas; fillmax does not enlarge what it pads', () => {
    const fill = plan('w=200&h=200&fit=fill');
    assert.deepEqual([fill.resize.width, fill.resize.height, fill.pad], [200, 150, 'background']);
    const fillmax = plan('w=800&h=800&fit=fillmax');
    assert.deepEqual([fillmax.resize.width, fillmax.canvas.width], [400, 800]);
    assert.equal(plan('w=200&h=200&fit=clamp').pad, 'edges');
  });

  test('rect cuts the source first; bounds keep the ratio', () => {
    const cut = plan('rect=350,250,100,100');
    assert.deepEqual(
      cut.region,
      { left: 350, top: 250, width: 50, height: 50 },
      'clamped to the image',
    );
    const bounded = plan('w=1000&max-w=200&max-h=100');
    assert.deepEqual([bounded.canvas.width, bounded.canvas.height], [133, 100]);
  });

  test('an output past the side or pixel limit is refused before anything is decoded', () => {
    assert.throws(() => plan('w=9000'), /at most 8192 px a side/);
    assert.throws(() => plan('w=2000&dpr=5'), /at most 8192 px/);
    assert.throws(() => plan('w=8000&h=8000&fit=scale'), /at most 40000000 pixels/);
  });
});

describe('HTTP ranges and conditions', () => {
  test('ranges', () => {
    assert.deepEqual(decideRange('bytes=0-9', undefined, 100, '"a"'), {
      kind: 'part',
      start: 0,
      end: 9,
    });
    assert.deepEqual(decideRange('bytes=90-', undefined, 100, '"a"'), {
      kind: 'part',
      start: 90,
      end: 99,
    });
    assert.deepEqual(decideRange('bytes=-500', undefined, 100, '"a"'), {
      kind: 'part',
      start: 0,
      end: 99,
    });
    assert.deepEqual(decideRange('bytes=100-', undefined, 100, '"a"'), { kind: 'unsatisfiable' });
    assert.deepEqual(decideRange('bytes=0-1,5-6', undefined, 100, '"a"'), { kind: 'whole' });
    assert.deepEqual(decideRange('bytes=0-9', '"b"', 100, '"a"'), { kind: 'whole' });
  });

  test('conditions', () => {
    const modified = new Date('2026-01-01T00:00:00.500Z');
    assert.equal(notModified('W/"a", "b"', undefined, '"a"', modified), true);
    assert.equal(notModified('"b"', 'Thu, 01 Jan 2099 00:00:00 GMT', '"a"', modified), false);
    assert.equal(notModified(undefined, 'Thu, 01 Jan 2026 00:00:00 GMT', '"a"', modified), true);
    assert.equal(notModified(undefined, 'Wed, 31 Dec 2025 23:59:59 GMT', '"a"', modified), false);
  });
});

describe('rendition bounds', () => {
  test('the cache deletes the least recently used renditions past its cap', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldhouse-renditions-'));
    try {
      const cache = new RenditionCache(dir, 250);
      await cache.ready();
      const a = await cache.store('aa01', 'png', Buffer.alloc(100));
      const b = await cache.store('bb02', 'png', Buffer.alloc(100));
      assert.ok(await cache.find('aa01', 'png'), 'a is used again: b is now the oldest');
      const c = await cache.store('cc03', 'png', Buffer.alloc(100));
      assert.equal(cache.bytes, 200);
      assert.equal(existsSync(b.file), false, 'b was evicted');
      assert.ok(existsSync(a.file) && existsSync(c.file));
      assert.equal(await cache.find('bb02', 'png'), null);
      // A new process counts what an earlier one left.
      const again = new RenditionCache(dir, 250);
      await again.ready();
      assert.equal(again.bytes, 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('single flight: callers of a running key share it; a settled key starts afresh', async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    let release = () => {};
    const work = () =>
      new Promise<number>((resolve) => {
        runs++;
        release = () => resolve(runs);
      });
    const first = flights.run('k', work);
    const second = flights.run('k', work);
    assert.deepEqual([first.joined, second.joined], [false, true]);
    release();
    assert.deepEqual([await first.result, await second.result], [1, 1]);
    assert.equal(flights.size, 0);
    const third = flights.run('k', work);
    release();
    assert.equal(await third.result, 2);
  });

  test('the render queue runs at most its concurrency and refuses past its waiting room', async () => {
    const queue = new RenderQueue(1, 1);
    let release = () => {};
    const running = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = queue.run(async () => 'second');
    assert.deepEqual(queue.load, { active: 1, waiting: 1 });
    await assert.rejects(
      queue.run(async () => 'third'),
      (error) => error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE',
    );
    release();
    await running;
    assert.equal(await waiting, 'second');
    assert.deepEqual(queue.load, { active: 0, waiting: 0 });
  });
});
