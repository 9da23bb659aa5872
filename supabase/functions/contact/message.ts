// The e-mail the store receives for one contact message. Plain text only: the visitor's words
// never reach an HTML renderer. No imports, so Node unit tests can check the exact output.

export interface StoredMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  created_at: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  /** The visitor: replying to the mail answers them. */
  replyTo: { name: string; address: string };
  subject: string;
  text: string;
  /** Stable per message, so mail clients can spot a duplicate should one ever be sent. */
  messageId: string;
  /** Provider-side de-duplication key (Resend's Idempotency-Key). */
  idempotencyKey: string;
}

/** Domain part of an address such as `Name <user@example.com>` (fallback: localhost). */
function domainOf(address: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(address);
  return m ? m[1]!.toLowerCase() : 'localhost';
}

export function composeMail(msg: StoredMessage, opts: { from: string; to: string }): OutgoingMail {
  const received = new Date(msg.created_at);
  const when = Number.isNaN(received.getTime()) ? msg.created_at : received.toISOString();
  const text = [
    'New message from the MAR Online Store contact form.',
    '',
    `Name: ${msg.name}`,
    `Email: ${msg.email}`,
    `Received: ${when}`,
    `Reference: ${msg.id}`,
    '',
    'Message:',
    msg.message,
    '',
    '-- ',
    'Reply to this e-mail to answer the visitor.',
    '',
  ].join('\n');
  return {
    from: opts.from,
    to: opts.to,
    replyTo: { name: msg.name, address: msg.email },
    // The name cannot contain line breaks (validated), so it is safe in a header.
    subject: `Contact form: ${msg.name}`,
    text,
    messageId: `<contact-${msg.id}@${domainOf(opts.from)}>`,
    idempotencyKey: `contact-message/${msg.id}`,
  };
}
