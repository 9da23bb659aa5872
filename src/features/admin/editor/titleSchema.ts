import { z } from '../../../lib/domain/zod';
import { texts } from '../../../adminTexts';

/** A required text field: trimmed, and empty gives the spec's message (and nothing else). */
export function required(message: string) {
  return z.string().trim().min(1, { message, abort: true });
}

/** Title alone: Get Product and Get Catagory ("Title is Required"). */
export const titleSchema = z.object({ title: required(texts.validation.titleRequired) });
