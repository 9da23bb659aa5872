import { zodResolver } from '@hookform/resolvers/zod';
import { contactFormSchema } from './contactSchema';

/** The contact form's validation, loaded on first use (ContactPage, lazyResolver). */
export const contactResolver = zodResolver(contactFormSchema);
