import type { Revision } from '../protocol/versions.ts';
import type { CodecOptions, RevisionCodec } from './codec.ts';
import { HandshakeCodec } from './handshake.ts';
import { StatelessCodec } from './stateless.ts';

/** Returns the codec of a request's revision; the handshake era's are built once per version. */
export function createCodecs(options: CodecOptions): (revision: Revision) => RevisionCodec {
  const handshake = new Map<string, HandshakeCodec>();
  const stateless = StatelessCodec.shared(options);
  return (revision) => {
    if (revision.era === 'stateless') return new StatelessCodec(revision, stateless);
    // A session's capabilities are the request's own: its codec is not shared.
    if (revision.clientCapabilities) return new HandshakeCodec(revision, options.callState);
    let codec = handshake.get(revision.protocolVersion);
    if (!codec)
      handshake.set(revision.protocolVersion, (codec = new HandshakeCodec(revision, options.callState)));
    return codec;
  };
}
