import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useStoreSettings } from '../../lib/infra/storeSettings';
import { constants, texts } from '../../texts';
import { paths } from '../../routing/paths';
import { type PrivacyFact, privacyFacts, retention } from './privacyFacts';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function ContactLinks() {
  const email = useStoreSettings().contactEmail;
  return (
    <>
      by e-mail to <Anchor href={`mailto:${email}`}>{email}</Anchor> or through our{' '}
      <Anchor component={Link} to={paths.contact}>
        {texts.nav.contact}
      </Anchor>{' '}
      page
    </>
  );
}

/** One fact of privacyFacts.ts: what is kept, what not, how long and why (decision 0214). */
function Fact({ fact }: { fact: PrivacyFact }) {
  const id = `policy-fact-${fact.id}`;
  return (
    <Stack gap={4} component="section" aria-labelledby={id} data-testid={id}>
      <Title order={3} size="h4" id={id}>
        {fact.title}
      </Title>
      <Text>
        <b>What we keep:</b> {fact.kept}
      </Text>
      <Text>
        <b>What we do not keep:</b> {fact.notKept}
      </Text>
      <Text>
        <b>How long:</b> {fact.howLong}
      </Text>
      <Text>
        <b>Lawful basis:</b> {fact.basis}
      </Text>
    </Stack>
  );
}

/**
 * Privacy Policy: the store's legal text, last updated June 2023, with the store's name and
 * address from the store settings and what it keeps rendered from privacyFacts.ts.
 */
export function PolicyPage() {
  const storeName = useStoreSettings().name;
  return (
    <Stack gap="lg" maw={820} mx="auto" py="md">
      <Stack gap={4}>
        <Title order={1}>{texts.pages.policyHeading}</Title>
        <Text c="dimmed" data-testid="policy-updated">
          {texts.pages.policyUpdated}
        </Text>
      </Stack>

      <Text>
        This policy explains how {storeName} (&quot;we&quot;, &quot;us&quot;) collects, uses, keeps
        and protects personal data when you visit our website, send us a message or use the
        store&apos;s admin area. We are the controller of that data under the UK General Data
        Protection Regulation (UK GDPR) and the Data Protection Act 2018. You can reach us about
        anything in this policy <ContactLinks />.
      </Text>

      <Section id="policy-data" title="1. Data we collect">
        <Text>We collect only what we need to run the store:</Text>
        <List spacing="xs">
          <List.Item>
            <b>Contact messages:</b> your name, e-mail address and message when you use the contact
            form, together with the time it was sent and the IP address it came from (used to stop
            abuse of the form).
          </List.Item>
          <List.Item>
            <b>Admin accounts:</b> the name, e-mail address and password of the people who manage
            the catalogue. Passwords are stored only as secure hashes.
          </List.Item>
          <List.Item>
            <b>Technical data:</b> our hosting provider records standard server logs (IP address,
            browser type, pages requested and the time of the request) to keep the service secure
            and working.
          </List.Item>
        </List>
        <Text>
          Browsing the catalogue needs no account, and we never take payments: when you press Buy
          Now you buy from the seller on the seller&apos;s own website, not from us.
        </Text>
      </Section>

      <Section id="policy-cookies" title="2. Cookies and local storage">
        <Text>
          We do not use advertising, analytics or tracking cookies. The admin area keeps a sign-in
          session in your browser&apos;s local storage so that an admin stays signed in; it is
          removed when the admin logs out. Visitors who do not sign in are not given any identifier.
          Your browser may remember your colour-scheme preference on this device. You can clear
          local storage at any time in your browser settings.
        </Text>
      </Section>

      <Section id="policy-use" title="3. How we use your data">
        <List spacing="xs">
          <List.Item>
            to read and answer your messages (our legitimate interest in replying to you);
          </List.Item>
          <List.Item>
            to let admins sign in and manage the store, and to send account e-mails such as address
            confirmations (necessary to provide the admin service);
          </List.Item>
          <List.Item>
            to protect the site against spam, fraud and attacks (our legitimate interest in a safe
            service);
          </List.Item>
          <List.Item>
            to meet legal obligations, for example answering a lawful request from an authority.
          </List.Item>
        </List>
        <Text>
          We do not sell your data, we do not use it for marketing without your consent and we do
          not make automated decisions about you.
        </Text>
      </Section>

      <Section id="policy-retention" title="4. How long we keep it">
        <List spacing="xs">
          <List.Item>
            contact messages: {retention.contactMessageMonths} months after they were sent, then
            deleted; the IP address a message came from: {retention.contactAddressDays} days;
          </List.Item>
          <List.Item>
            admin accounts: while the account is active, and deleted within 30 days of its closure;
          </List.Item>
          <List.Item>
            server logs: as long as our hosts keep them (below), unless needed longer to investigate
            a security incident.
          </List.Item>
        </List>
        <Text>
          In detail, what we keep, what we do not, for how long and on which lawful basis (UK GDPR
          and the Privacy and Electronic Communications Regulations (PECR), as amended by the Data
          (Use and Access) Act 2025):
        </Text>
        {privacyFacts(storeName).map((fact) => (
          <Fact key={fact.id} fact={fact} />
        ))}
      </Section>

      <Section id="policy-transfer" title="5. Who we share it with and international transfers">
        <Text>
          We share personal data only with the service providers that run the store for us: our
          hosting and database provider, our authentication service and our e-mail delivery service.
          They process the data only on our instructions and under a written contract. Some of them
          may store or process data outside the United Kingdom. Where that happens we make sure the
          transfer is protected, either because the country has UK adequacy regulations or through
          the UK International Data Transfer Agreement or the UK Addendum to the EU Standard
          Contractual Clauses.
        </Text>
      </Section>

      <Section id="policy-rights" title="6. Your rights and deleting your data">
        <Text>
          You have the right to ask for a copy of your personal data, to have it corrected, to have
          it deleted, to restrict or object to how we use it, and to receive it in a portable
          format. To ask us to delete your data, or to use any other right, contact us{' '}
          <ContactLinks />. We will answer within one month and delete what we hold unless the law
          requires us to keep it. If you are unhappy with our answer you can complain to the
          Information Commissioner&apos;s Office (ICO) at ico.org.uk.
        </Text>
      </Section>

      <Section id="policy-children" title={`7. Children under ${constants.privacyAgeThreshold}`}>
        <Text>
          Our store is not directed at children under {constants.privacyAgeThreshold} years of age
          and we do not knowingly collect personal data from them. If you believe a child under{' '}
          {constants.privacyAgeThreshold} has sent us personal data, please contact us and we will
          delete it promptly.
        </Text>
      </Section>

      <Section id="policy-links" title="8. Links to other websites">
        <Text>
          Our product pages link to outside sellers (the Buy Now buttons) and to our social media
          page. Those websites are run by others, have their own privacy policies and may set their
          own cookies. We are not responsible for their content or practices, so please read their
          policies before you give them any personal data.
        </Text>
      </Section>

      <Section id="policy-security" title="9. Security">
        <Text>
          Data travels over encrypted connections, access to the store&apos;s data is limited to the
          admins who need it, and passwords are stored only as hashes. No system is perfectly
          secure, but we review our safeguards regularly and will tell you and the ICO about a
          breach where the law requires it.
        </Text>
      </Section>

      <Section id="policy-changes" title="10. Changes to this policy">
        <Text>
          We may update this policy when our services or the law change. The date at the top shows
          when it last changed; for significant changes we will also place a notice on the home
          page.
        </Text>
      </Section>

      <Section id="policy-contact" title="11. Contact us">
        <Text>
          For any question about this policy or your personal data, contact us <ContactLinks />.
        </Text>
      </Section>
    </Stack>
  );
}
