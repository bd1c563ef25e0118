/**
 * A streaming CSV parser (RFC 4180, read leniently): comma-separated fields, fields in double quotes may hold commas,
 * line breaks and doubled quotes, records end with LF or CRLF. Text goes in piece by piece, in any cut, and each
 * record comes out with its fields and its exact source text, so a page can show rows as they were stored. Only
 * the record being read is held, and it may not grow past a cap.
 */

/** A record: its fields, unquoted, and its source text including the line break that ends it. */
export interface CsvRecord {
  fields: string[];
  raw: string;
}

/** A record grew past the cap (an unclosed quote, or not CSV at all). */
export class CsvRecordTooLong extends Error {
  constructor(readonly maxChars: number) {
    super(`a CSV record is longer than ${maxChars} characters`);
    this.name = 'CsvRecordTooLong';
  }
}

/** Where the parser is: at the start of a field, inside one, or after a quote inside a quoted one. */
const State = { FieldStart: 0, Unquoted: 1, Quoted: 2, QuoteInQuoted: 3 } as const;
type State = (typeof State)[keyof typeof State];

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;

export class CsvParser {
  private state: State = State.FieldStart;
  private fields: string[] = [];
  private field = '';
  /** Source text of the current record from earlier pieces. */
  private rawCarry = '';
  private out: CsvRecord[] = [];
  /** Where, in the piece being read, the pending field text and the current record's source start. */
  private segment = 0;
  private rawStart = 0;

  constructor(private readonly maxRecordChars: number) {}

  /** Reads a piece of text; returns the records it completed. */
  push(text: string): CsvRecord[] {
    this.out = [];
    this.segment = 0;
    this.rawStart = 0;
    for (let i = 0; i < text.length; i++) i = this.step(text, i);
    if (this.state === State.Unquoted || this.state === State.Quoted) this.field += text.slice(this.segment);
    this.rawCarry += text.slice(this.rawStart);
    if (this.rawCarry.length > this.maxRecordChars) throw new CsvRecordTooLong(this.maxRecordChars);
    return this.out;
  }

  /** Ends the input; returns the last record when the text did not end with a line break. */
  end(): CsvRecord[] {
    const open = this.rawCarry !== '' || this.fields.length > 0;
    if (!open) return [];
    this.fields.push(this.field);
    const record = { fields: this.fields, raw: this.rawCarry };
    this.reset();
    return [record];
  }

  /** Handles the character at `i`; returns the index the loop continues from (minus one). */
  private step(text: string, i: number): number {
    const c = text.charCodeAt(i);
    switch (this.state) {
      case State.FieldStart:
        if (c === QUOTE) {
          this.state = State.Quoted;
          this.segment = i + 1;
        } else if (c === COMMA) this.fields.push('');
        else if (c === LF) this.endRecord(text, i, '');
        else {
          this.state = State.Unquoted;
          this.segment = i;
        }
        return i;
      case State.Unquoted: {
        if (c === COMMA) {
          this.fields.push(this.field + text.slice(this.segment, i));
          this.field = '';
          this.state = State.FieldStart;
        } else if (c === LF) {
          const value = this.field + text.slice(this.segment, i);
          this.endRecord(text, i, value.endsWith('\r') ? value.slice(0, -1) : value);
        }
        return i;
      }
      case State.Quoted: {
        const quote = text.indexOf('"', i);
        if (quote === -1) return text.length - 1;
        this.field += text.slice(this.segment, quote);
        this.state = State.QuoteInQuoted;
        return quote;
      }
      case State.QuoteInQuoted:
        if (c === QUOTE) {
          this.field += '"';
          this.state = State.Quoted;
          this.segment = i + 1;
        } else if (c === COMMA) {
          this.fields.push(this.field);
          this.field = '';
          this.state = State.FieldStart;
        } else if (c === LF) this.endRecord(text, i, this.field);
        else {
          // A CR before CRLF, or text after a closing quote (not RFC 4180): read on as unquoted text.
          this.state = State.Unquoted;
          this.segment = i;
        }
        return i;
    }
  }

  private endRecord(text: string, at: number, last: string): void {
    this.fields.push(last);
    const raw = this.rawCarry + text.slice(this.rawStart, at + 1);
    if (raw.length > this.maxRecordChars) throw new CsvRecordTooLong(this.maxRecordChars);
    this.out.push({ fields: this.fields, raw });
    this.reset();
    this.rawStart = at + 1;
  }

  private reset(): void {
    this.fields = [];
    this.field = '';
    this.rawCarry = '';
    this.state = State.FieldStart;
  }
}
