import { Type } from '@sinclair/typebox';
import { BooleanParam } from './item-type.ts';

/** `{data: {type: "environment", id: <new id>}}`: the body of fork and rename. */
export const EnvironmentIdBody = Type.Object(
  {
    data: Type.Object({ type: Type.String(), id: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const ForkEnvironmentQuery = Type.Object(
  {
    immediate_return: Type.Optional(BooleanParam),
    fast: Type.Optional(BooleanParam),
    force: Type.Optional(BooleanParam),
  },
  { additionalProperties: false },
);

export const ActivateMaintenanceModeQuery = Type.Object(
  { force: Type.Optional(BooleanParam) },
  { additionalProperties: false },
);
