import type { Revision } from '../protocol/versions.ts';
import type { CodecOptions, RevisionCodec } from './codec.ts';
import { LegacyCodec } from './legacy.ts';
import { ModernCodec } from './modern.ts';

/** Returns the codec of a request's revision; the handshake era's are built once per version. */
export function createCodecs(options: CodecOptions): (revision: Revision) => RevisionCodec {
  const legacy = new Map<string, LegacyCodec>();
  const modern = ModernCodec.shared(options);
  return (revision) => {
    if (revision.era === 'modern') return new ModernCodec(revision, modern);
    let codec = legacy.get(revision.protocolVersion);
    if (!codec) legacy.set(revision.protocolVersion, (codec = new LegacyCodec(revision)));
    return codec;
  };
}
