import { z } from '../../../lib/domain/zod';
import { texts } from '../../../adminTexts';
import { required } from '../editor/titleSchema';

/** The Catagories form (Add and Update). */
export const categorySchema = z.object({
  title: required(texts.validation.titleRequired).max(80, {
    message: texts.categoryForm.titleTooLong,
  }),
});

export type CategoryValues = z.infer<typeof categorySchema>;
