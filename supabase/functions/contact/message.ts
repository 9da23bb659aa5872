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
  /** The visitor: replying to the mail answers them (none for a digest of many visitors). */
  replyTo?: { name: string; address: string };
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

/**
 * One mail for many messages stored after the day's mail cap (docs/decisions/0203): each message
 * in full with its sender's address, oldest first. `msgs` is never empty.
 */
export function composeDigest(
  msgs: readonly StoredMessage[],
  opts: { from: string; to: string },
): OutgoingMail {
  const n = msgs.length;
  const parts = [
    `${n} message(s) from the MAR Online Store contact form, sent together because the day's`,
    'limit of contact mails was reached. Each message is also in the admin Messages tab.',
    '',
  ];
  msgs.forEach((msg, i) => {
    const received = new Date(msg.created_at);
    const when = Number.isNaN(received.getTime()) ? msg.created_at : received.toISOString();
    parts.push(
      `----- Message ${i + 1} of ${n} -----`,
      `Name: ${msg.name}`,
      `Email: ${msg.email}`,
      `Received: ${when}`,
      `Reference: ${msg.id}`,
      '',
      msg.message,
      '',
    );
  });
  parts.push('-- ', 'Reply to each visitor at the e-mail address shown with their message.', '');
  const first = msgs[0]!.id;
  const last = msgs[n - 1]!.id;
  return {
    from: opts.from,
    to: opts.to,
    subject: `Contact form digest: ${n} message(s)`,
    text: parts.join('\n'),
    messageId: `<contact-digest-${first}-${n}@${domainOf(opts.from)}>`,
    // The same claimed set (a retry after an unclear outcome) gives the same key.
    idempotencyKey: `contact-digest/${first}/${last}/${n}`,
  };
}
