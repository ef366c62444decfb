import type { ModelField } from '../schema-data.ts';
import { AssetInput, GalleryInput } from './asset-input.tsx';
import { BlocksInput, SingleBlockInput } from './blocks-input.tsx';
import { LinkInput, LinksInput } from './link-input.tsx';
import { ColorInput, JsonInput, LatLonInput, SeoInput, VideoInput } from './structured-inputs.tsx';
import { StructuredTextInput } from './structured-text-input.tsx';

export type InputProps<T = unknown> = {
  id: string;
  field: ModelField;
  value: T;
  onChange: (value: T) => void;
  invalid: boolean;
};

function numberOrNull(raw: string, integer: boolean): number | null {
  if (raw.trim() === '') return null;
  return integer ? Number.parseInt(raw, 10) : Number(raw);
}

/** The input for one field's value (one locale's, for a localized field). */
export function FieldInput(props: InputProps) {
  const { id, field, value, onChange, invalid } = props;
  const common = { id, 'aria-invalid': invalid ? ('true' as const) : undefined };
  switch (field.field_type) {
    case 'string': {
      const allowed = (field.validators.enum as { values?: string[] } | undefined)?.values;
      if (allowed) {
        return (
          <select
            {...common}
            value={(value as string) ?? ''}
            onChange={(e) => onChange(e.currentTarget.value || null)}
          >
            <option value="">—</option>
            {allowed.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        );
      }
      return (
        <input
          {...common}
          value={(value as string) ?? ''}
          onInput={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    }
    case 'slug':
      return (
        <input
          {...common}
          value={(value as string) ?? ''}
          onInput={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    case 'text':
      return (
        <textarea
          {...common}
          value={(value as string) ?? ''}
          onInput={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    case 'boolean':
      return (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'integer':
    case 'float':
      return (
        <input
          {...common}
          type="number"
          step={field.field_type === 'integer' ? '1' : 'any'}
          value={value === null || value === undefined ? '' : String(value)}
          onInput={(e) =>
            onChange(numberOrNull(e.currentTarget.value, field.field_type === 'integer'))
          }
        />
      );
    case 'date':
      return (
        <input
          {...common}
          type="date"
          value={(value as string) ?? ''}
          onInput={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    case 'date_time':
      return (
        <input
          {...common}
          type="datetime-local"
          step="1"
          value={typeof value === 'string' ? toLocalInput(value) : ''}
          onInput={(e) =>
            onChange(e.currentTarget.value ? new Date(e.currentTarget.value).toISOString() : null)
          }
        />
      );
    case 'color':
      return <ColorInput {...props} />;
    case 'json':
      return <JsonInput {...props} />;
    case 'lat_lon':
      return <LatLonInput {...props} />;
    case 'seo':
      return <SeoInput {...props} />;
    case 'video':
      return <VideoInput {...props} />;
    case 'file':
      return <AssetInput {...props} />;
    case 'gallery':
      return <GalleryInput {...props} />;
    case 'link':
      return <LinkInput {...props} />;
    case 'links':
      return <LinksInput {...props} />;
    case 'rich_text':
      return <BlocksInput {...props} />;
    case 'single_block':
      return <SingleBlockInput {...props} />;
    case 'structured_text':
      return <StructuredTextInput {...props} />;
    default:
      return <JsonInput {...props} />;
  }
}

/** An ISO instant as a datetime-local input's value, in the browser's zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 19);
}
