// Reads an upload as storage-js sends it: multipart form data (a Blob or File: the file part plus
// `cacheControl` and `metadata` fields) or the raw body with Content-Type, Cache-Control and
// x-metadata headers. Bodies over the limit are cut off as they arrive, never buffered whole.
// The type is checked strictly (media-type.ts): a raw body's before a byte of it is read.
import type http from 'node:http';
import { ERRORS } from './errors.ts';
import { allowedMediaType } from './media-type.ts';

export interface UploadedFile {
  data: Buffer;
  /** The one allowed type, without parameters: stored in the metadata and served back. */
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

// Room for the multipart envelope (boundaries, part headers, the small fields) above the limit.
const MULTIPART_OVERHEAD = 64 * 1024;
const MAX_USER_METADATA_BYTES = 1024 * 1024;

async function readLimited(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw ERRORS.tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw ERRORS.tooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function parseUserMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null || text === '') return null;
  if (Buffer.byteLength(text) > MAX_USER_METADATA_BYTES) throw ERRORS.tooLarge();
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw ERRORS.invalidRequest('metadata is not a JSON object');
}

export async function readUpload(
  req: http.IncomingMessage,
  limit: number,
  allowedTypes: string[] | null,
): Promise<UploadedFile> {
  const contentType = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(contentType)) {
    const raw = await readLimited(req, limit + MULTIPART_OVERHEAD);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      throw ERRORS.invalidRequest('The multipart body could not be read');
    }
    const file = [...form.values()].find((v): v is File => typeof v !== 'string');
    if (!file) throw ERRORS.invalidRequest('No file was found in the multipart body');
    if (file.size > limit) throw ERRORS.tooLarge();
    const cacheTime = form.get('cacheControl');
    const metadata = form.get('metadata');
    const type = allowedMediaType(file.type || 'application/octet-stream', allowedTypes, true);
    return {
      data: Buffer.from(await file.arrayBuffer()),
      contentType: type,
      cacheControl:
        typeof cacheTime === 'string' && cacheTime ? `max-age=${cacheTime}` : 'no-cache',
      userMetadata: parseUserMetadata(typeof metadata === 'string' ? metadata : null),
    };
  }
  const type = allowedMediaType(contentType || 'application/octet-stream', allowedTypes, false);
  const data = await readLimited(req, limit);
  const header = req.headers['x-metadata'];
  let metadataText: string | null = null;
  if (typeof header === 'string' && header !== '') {
    metadataText = Buffer.from(header, 'base64').toString('utf8');
  }
  return {
    data,
    contentType: type,
    cacheControl: req.headers['cache-control'] ?? 'no-cache',
    userMetadata: parseUserMetadata(metadataText),
  };
}
