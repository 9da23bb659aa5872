// Pictures for the upload tests (REQ-IMG-1), made with sharp: a JPEG as a phone writes it, with the
// camera and GPS position in EXIF, and readers that tell what a stored file really holds.
import sharp from 'sharp';

/** Marks written into the fixture's EXIF (camera make, GPS map datum) to look for afterwards. */
export const EXIF_MARKS = ['E2E-CAMERA', 'E2E-GPS-DATUM'] as const;

/** A `width`×`height` JPEG with a pattern (not flat: a flat picture says nothing of quality). */
export async function jpegWithGps(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x >> 5) + (y >> 5)) % 2 ? 200 : 40;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: EXIF_MARKS[0] },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2615/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3949/100',
        GPSMapDatum: EXIF_MARKS[1],
      },
    })
    .toBuffer();
}

export interface PictureFacts {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  /** Whether the file has an EXIF block at all. */
  hasExif: boolean;
  /** Whether any EXIF mark of the fixture appears anywhere in the bytes. */
  hasMarks: boolean;
}

export async function pictureFacts(bytes: Buffer): Promise<PictureFacts> {
  const meta = await sharp(bytes).metadata();
  return {
    format: meta.format,
    width: meta.width,
    height: meta.height,
    hasExif: meta.exif !== undefined,
    hasMarks: EXIF_MARKS.some((mark) => bytes.includes(mark)),
  };
}
