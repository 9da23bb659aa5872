// The Content-Type of an upload, read strictly: exactly one media type (RFC 9110 §8.3.1:
// `type "/" subtype *( OWS ";" OWS name "=" ( token / quoted-string ) )`), never a list, and what
// is stored and served is the normalised type alone, so a browser can never be handed a second
// type hidden in a parameter (`image/png;x=,text/html`). stack/PLATFORM.md: Storage.
import { ERRORS } from './errors.ts';

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t !-~])*"';
const MEDIA_TYPE = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*)[ \\t]*$`,
);

export interface MediaType {
  /** `type/subtype` exactly as given (hosted compares it case-sensitively). */
  essence: string;
  hasParameters: boolean;
}

/** One well-formed media type, or null (lists, empty parameters, stray characters, `*`). */
export function parseMediaType(value: string): MediaType | null {
  const m = MEDIA_TYPE.exec(value.trim());
  if (!m || m[1]!.includes('*') || m[2]!.includes('*')) return null;
  return { essence: `${m[1]}/${m[2]}`, hasParameters: m[3] !== '' };
}

/**
 * The type to store for an upload, or hosted's 415 refusal. With an allow-list (the store's
 * bucket) only a bare allowed `type/subtype` passes: hosted compares the whole value with each
 * entry, so a parameter fails there too. Without one, the bare type is stored (parameters are
 * dropped). `wildcard/*` entries allow any subtype of that type, as hosted.
 */
export function allowedMediaType(
  given: string,
  allowed: string[] | null,
  multipart: boolean,
): string {
  const parsed = parseMediaType(given);
  // Hosted names the part's parsed type for form uploads and the header as sent otherwise.
  const refuse = () => ERRORS.invalidMimeType(multipart && parsed ? parsed.essence : given);
  if (!parsed) throw refuse();
  if (!allowed || allowed.length === 0) return parsed.essence.toLowerCase();
  if (parsed.hasParameters) throw refuse();
  const [type] = parsed.essence.split('/');
  const ok = allowed.some((rule) =>
    rule.endsWith('/*') ? rule === `${type}/*` : rule === parsed.essence,
  );
  if (!ok) throw refuse();
  return parsed.essence;
}

/** What a stored object is served as: its type if it is one well-formed bare type. */
export function servedMediaType(stored: string | undefined): string {
  const parsed = stored === undefined ? null : parseMediaType(stored);
  return parsed && !parsed.hasParameters ? parsed.essence : 'application/octet-stream';
}
