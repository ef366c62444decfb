import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageUrl, outputSize } from '../../src/cda/uploads/image-url.ts';
import { imgixName, imgixQuery } from '../../src/cda/uploads/imgix-params.ts';

test('imgix names: camelCase arguments in imgix spelling, lists comma separated, sorted', () => {
  assert.equal(imgixName('fpX'), 'fp-x');
  assert.equal(imgixName('maxW'), 'max-w');
  assert.equal(imgixName('txtLineColor'), 'txt-line-color');
  assert.deepEqual(imgixQuery({ w: 10, auto: ['format', 'compress'], fm: 'webp', h: null }), [
    ['auto', 'format,compress'],
    ['fm', 'webp'],
    ['w', '10'],
  ]);
});

test('the focal point joins a focalpoint crop unless the query sets one', () => {
  const source = { url: 'https://a/x.png', width: 100, height: 50, focalPoint: { x: 0.2, y: 0.7 } };
  assert.equal(
    imageUrl(source, { crop: ['focalpoint'], fit: 'crop' }),
    'https://a/x.png?crop=focalpoint&fit=crop&fp-x=0.2&fp-y=0.7',
  );
  assert.equal(
    imageUrl(source, { crop: ['focalpoint'], fpX: 0.5, fpY: 0.5 }),
    'https://a/x.png?crop=focalpoint&fp-x=0.5&fp-y=0.5',
  );
  assert.equal(imageUrl(source, null), 'https://a/x.png');
});

test('output sizes follow imgix resize rules', () => {
  assert.deepEqual(outputSize(400, 200, { w: 200 }), { width: 200, height: 100 });
  assert.deepEqual(
    outputSize(400, 200, { w: 100, h: 100 }),
    { width: 100, height: 50 },
    'clip fits inside',
  );
  assert.deepEqual(outputSize(400, 200, { w: 100, h: 100, fit: 'crop' }), {
    width: 100,
    height: 100,
  });
  assert.deepEqual(outputSize(400, 200, { w: 800, fit: 'max' }), { width: 400, height: 200 });
  assert.deepEqual(outputSize(400, 200, { ar: '1:1', fit: 'crop', w: 50 }), {
    width: 50,
    height: 50,
  });
  assert.deepEqual(outputSize(400, 200, { maxW: 100 }), { width: 100, height: 50 });
  assert.deepEqual(outputSize(400, 200, { w: 0.5 }), { width: 200, height: 100 });
});
