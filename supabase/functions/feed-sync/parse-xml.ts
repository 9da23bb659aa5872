// Streaming Google Merchant XML (RSS 2.0 <item> or Atom <entry>, attributes in the g: namespace)
// with saxes, a maintained SAX parser (decision 0242): one item in memory at a time. Element
// names are taken without their prefix (g:price -> price); <g:shipping><g:price> is the item's
// shipping (delivery); an Atom <link href> gives the link.
import { SaxesParser } from 'npm:saxes@6.0.0';
import { FeedParseError, formatLine } from './parse-csv.ts';

export interface XmlItem {
  /** Line of the item's opening tag. */
  line: number;
  /** Ordinal of the item in the file (1-based): a resumed run skips the ones already staged. */
  index: number;
  record: Map<string, string>;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

export class XmlItemParser {
  private readonly sax = new SaxesParser({ xmlns: false, position: true });
  private readonly text = new TextDecoder('utf-8');
  private out: XmlItem[] = [];
  private item: XmlItem | null = null;
  /** Path of element names inside the current item. */
  private path: string[] = [];
  private value = '';
  private size = 0;
  private count = 0;
  private failure: FeedParseError | null = null;

  constructor(private readonly maxRowBytes: number) {
    this.sax.on('error', (err) => {
      this.failure ??= new FeedParseError(
        this.sax.line,
        `the XML is not well-formed (${err.message.replace(/^.*?:\d+:\d+: /, '')})`,
      );
    });
    this.sax.on('opentag', (tag) => {
      const name = local(tag.name);
      if (!this.item) {
        if (name === 'item' || name === 'entry') {
          this.count++;
          this.item = { line: this.sax.line, index: this.count, record: new Map() };
          this.path = [];
          this.size = 0;
        }
        return;
      }
      this.path.push(name);
      this.value = '';
      const attrs = tag.attributes as Record<string, string>;
      if (name === 'link' && this.path.length === 1 && attrs.href) this.set('link', attrs.href);
    });
    this.sax.on('text', (t) => this.addText(t));
    this.sax.on('cdata', (t) => this.addText(t));
    this.sax.on('closetag', (tag) => {
      if (!this.item) return;
      const name = local(tag.name);
      if (this.path.length === 0) {
        if (name === 'item' || name === 'entry') this.out.push(this.item);
        this.item = null;
        return;
      }
      const depth = this.path.length;
      this.path.pop();
      const v = this.value.trim();
      this.value = '';
      if (!v) return;
      if (depth === 1) {
        if (!this.item.record.has(name)) this.set(name, v);
      } else if (depth === 2 && name === 'price' && this.path[0] === 'shipping') {
        if (!this.item.record.has('shipping')) this.set('shipping', v);
      }
    });
  }

  private set(name: string, v: string): void {
    this.item!.record.set(name, v);
  }

  private addText(t: string): void {
    if (!this.item) return;
    this.size += t.length;
    if (this.size > this.maxRowBytes) {
      throw new FeedParseError(
        this.item.line,
        `an item is longer than ${formatLine(this.maxRowBytes)} bytes`,
      );
    }
    if (this.path.length > 0) this.value += t;
  }

  private take(): XmlItem[] {
    if (this.failure) throw this.failure;
    const out = this.out;
    this.out = [];
    return out;
  }

  push(chunk: Uint8Array): XmlItem[] {
    this.sax.write(this.text.decode(chunk, { stream: true }));
    return this.take();
  }

  end(): XmlItem[] {
    const rest = this.text.decode();
    if (rest) this.sax.write(rest);
    this.sax.close();
    if (this.item && !this.failure) {
      this.failure = new FeedParseError(this.item.line, 'the file ends inside an item');
    }
    return this.take();
  }
}
