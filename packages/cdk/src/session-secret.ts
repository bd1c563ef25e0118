import { Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Properties of a {@link SessionSecret}. */
export interface SessionSecretProps {
  /**
   * What `cdk destroy` does with the secret.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The keys that seal handshake-era session ids (`Mcp-Session-Id`) and the 2026-07-28 `requestState` of multi
 * round-trip requests (docs/asking.md; each use derives keys of its own from them): a generated Secrets Manager secret
 * the MCP function reads on first need and again every five minutes (MCP_SESSION_SECRET_ARN). Every instance opens
 * every session, and the retry of every `inputRequired` exchange, with it. To rotate, put a new key in front of the
 * old one (comma-separated) and drop the old one a day later; a key dropped from the secret stops working
 * everywhere within five minutes. Its value never appears in the template.
 */
export class SessionSecret extends Construct {
  readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: SessionSecretProps = {}) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Keys sealing the MCP session ids and requestState (newest first, comma-separated)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotation means putting a new key in front of the old one and removing the old one once its sessions have ' +
        'ended; a replacing rotation would end every session (clients initialize again) and every pending ' +
        'inputRequired exchange at once. Done by hand.',
    });
  }

  /** The environment the MCP function reads the secret from. */
  get environment(): Record<string, string> {
    return { MCP_SESSION_SECRET_ARN: this.secret.secretArn };
  }

  /** Least privilege: read this one secret's value. */
  grantRead(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['secretsmanager:GetSecretValue'],
      resourceArns: [this.secret.secretArn],
    });
  }
}
