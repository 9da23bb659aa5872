import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { notify } from '../../../lib/infra/notify';

/**
 * Runs `schema` over the form's current values for one action (the product and category forms
 * validate differently per button). Every failing field shows its message under the field, the
 * first one is also toasted (REQ-PROD-2) and focused.
 */
export function validateWith<TValues extends FieldValues, TSchema extends z.ZodType>(
  form: Pick<UseFormReturn<TValues>, 'getValues' | 'setError' | 'clearErrors'>,
  schema: TSchema,
): z.output<TSchema> | null {
  form.clearErrors();
  const result = schema.safeParse(form.getValues());
  if (result.success) return result.data;
  const seen = new Set<string>();
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || seen.has(field)) continue;
    form.setError(
      field as Path<TValues>,
      { type: 'validate', message: issue.message },
      {
        shouldFocus: seen.size === 0,
      },
    );
    if (seen.size === 0) notify.error(issue.message);
    seen.add(field);
  }
  return null;
}
