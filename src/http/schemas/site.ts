import { Type } from '@sinclair/typebox';
import { MAX_HINT_LENGTH, MAX_NAME_LENGTH } from '../../domain/limits.ts';
import { NoMembers, Nullable, NullableEnum, NullableString, ResourceDocument } from '../jsonapi.ts';

const strict = { additionalProperties: false } as const;
const Text = Type.String({ maxLength: MAX_NAME_LENGTH });
const OptionalText = Type.Optional(NullableString({ maxLength: MAX_NAME_LENGTH }));
const Channel = Type.Integer({ minimum: 0, maximum: 255 });
const Color = Type.Object({ red: Channel, green: Channel, blue: Channel, alpha: Channel }, strict);
const Hue = Nullable(Type.Integer({ minimum: 0, maximum: 359 }));

// The two shapes the client types; each also accepts what GET returns, so a theme round-trips.
const MonochromaticTheme = Type.Object(
  {
    type: Type.Literal('monochromatic'),
    hue: Hue,
    logo: NullableString({ maxLength: MAX_NAME_LENGTH }),
  },
  strict,
);
const CustomTheme = Type.Object(
  {
    type: Type.Optional(Type.Literal('custom')),
    hue: Type.Optional(Type.Null()),
    logo: NullableString({ maxLength: MAX_NAME_LENGTH }),
    primary_color: Color,
    light_color: Color,
    accent_color: Color,
    dark_color: Type.Optional(Color),
  },
  strict,
);

const GlobalSeo = Nullable(
  Type.Object(
    {
      site_name: Type.Optional(Text),
      fallback_seo: Type.Optional(
        Type.Object(
          {
            title: Text,
            description: Type.String({ maxLength: MAX_HINT_LENGTH }),
            image: NullableString(),
            twitter_card: Type.Optional(NullableEnum(['summary', 'summary_large_image'])),
          },
          strict,
        ),
      ),
      title_suffix: OptionalText,
      facebook_page_url: OptionalText,
      twitter_account: OptionalText,
    },
    strict,
  ),
);

export const UpdateSiteBody = ResourceDocument({
  attributes: Type.Object(
    {
      no_index: Type.Optional(Type.Boolean()),
      favicon: Type.Optional(NullableString({ maxLength: MAX_NAME_LENGTH })),
      global_seo: Type.Optional(GlobalSeo),
      name: Type.Optional(Type.String()),
      theme: Type.Optional(Type.Union([MonochromaticTheme, CustomTheme])),
      locales: Type.Optional(Type.Array(Type.String())),
      timezone: Type.Optional(Type.String()),
      require_2fa: Type.Optional(Type.Boolean()),
      ip_tracking_enabled: Type.Optional(Type.Boolean()),
      force_use_of_sandbox_environments: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const SiteQuery = Type.Object({ include: Type.Optional(Type.String()) }, strict);
