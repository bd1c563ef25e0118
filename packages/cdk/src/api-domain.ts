import { Stack, Token } from 'aws-cdk-lib';
import type * as rest from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import type { Construct } from 'constructs';

/** A Route 53 public hosted zone, by id and name (imported: nothing is looked up at synth time). */
export interface HostedZoneRef {
  /** The zone's id, e.g. `Z0123456789ABCDEFGHIJ`. Required. */
  readonly hostedZoneId: string;
  /** The zone's domain, e.g. `example.com`. Required. */
  readonly zoneName: string;
}

/**
 * Properties of an {@link ApiDomain}: the `DomainNameProps` of a regional API Gateway custom domain but the
 * certificate, which comes from `certificateArn` or is created in `hostedZone`.
 */
export interface ApiDomainProps extends Omit<apigw.DomainNameProps, 'certificate' | 'endpointType'> {
  /**
   * An ACM certificate for `domainName` in the stack's region (a regional custom domain takes one from its own
   * region).
   * @default - a new certificate, validated through DNS records in `hostedZone`
   */
  readonly certificateArn?: string;
  /**
   * The public hosted zone `domainName` belongs to: it validates a new certificate and gets an alias record for
   * `domainName`.
   * @default - none: `certificateArn` is needed, and DNS for `domainName` is yours to point at
   * `regionalDomainName`
   */
  readonly hostedZone?: HostedZoneRef;
}

/** A lower-case DNS name of two or more labels, no wildcard, no trailing dot. */
const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ZONE_ID = /^Z[0-9A-Z]{1,31}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

/**
 * The checks a custom domain must pass before anything is created: a name, and a certificate (given, or made in
 * the zone the name belongs to), in `region` when the stack's region is known. Returns the problem, or undefined.
 */
export function domainProblem(
  props: Pick<ApiDomainProps, 'domainName' | 'certificateArn' | 'hostedZone'>,
  region?: string,
): string | undefined {
  const { domainName, certificateArn, hostedZone } = props;
  if (!DNS_NAME.test(domainName))
    return `domain name ${JSON.stringify(domainName)} must be a lower-case DNS name such as mcp.example.com (no wildcard, no trailing dot)`;
  if (certificateArn === undefined && hostedZone === undefined)
    return `domain ${domainName} needs a certificate: give certificateArn (ACM, in the stack's region), or a hosted zone to create one in`;
  if (certificateArn !== undefined) {
    const match = CERTIFICATE_ARN.exec(certificateArn);
    if (!match) return `certificateArn ${JSON.stringify(certificateArn)} is not an ACM certificate ARN`;
    if (region !== undefined && !Token.isUnresolved(region) && match[1] !== region)
      return `certificateArn is in ${match[1]}, but a regional custom domain needs a certificate in the stack's region ${region}`;
  }
  if (hostedZone !== undefined) {
    if (!ZONE_ID.test(hostedZone.hostedZoneId))
      return `hosted zone id ${JSON.stringify(hostedZone.hostedZoneId)} is not a Route 53 zone id (Z…)`;
    const zone = hostedZone.zoneName.replace(/\.$/, '');
    if (!DNS_NAME.test(zone))
      return `hosted zone name ${JSON.stringify(hostedZone.zoneName)} is not a DNS name`;
    if (domainName !== zone && !domainName.endsWith(`.${zone}`))
      return `domain name ${domainName} is not in the hosted zone ${zone}`;
  }
  return undefined;
}

/**
 * A regional API Gateway custom domain (`AWS::ApiGatewayV2::DomainName`, TLS 1.2) with its certificate and, with a
 * hosted zone, its alias record. A regional custom domain serves HTTP APIs and REST APIs alike, managed through
 * the API Gateway v2 API: `mapHttpApi` or `mapRestApi` maps one stage at the root of the domain, so the endpoint is
 * `https://<domain>/mcp` whatever the stage is called (API Gateway Developer Guide, "Custom domain name for public
 * REST APIs" and "Set up a Regional custom domain name": https://docs.aws.amazon.com/apigateway/latest/developerguide/how-to-custom-domains.html,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-regional-api-custom-domain-create.html).
 *
 * The certificate, when created, is a sibling with id `<id>Certificate`: the domain needs it when it is
 * constructed.
 */
export class ApiDomain extends apigw.DomainName {
  /** The domain's certificate (imported or created). */
  readonly certificate: acm.ICertificate;
  /** The domain name as given (a plain string; `name` is the resource's reference). */
  readonly host: string;
  /** `https://<domain>`: the origin the endpoint (and the authorization bridge) is reached at. */
  readonly url: string;
  /** The alias record, when a hosted zone was given. */
  readonly record?: route53.ARecord;

  constructor(scope: Construct, id: string, props: ApiDomainProps) {
    const { certificateArn, hostedZone, ...domainProps } = props;
    const problem = domainProblem(props, Stack.of(scope).region);
    if (problem) throw new Error(`ApiDomain: ${problem}`);
    const zone = hostedZone
      ? route53.HostedZone.fromHostedZoneAttributes(scope, `${id}Zone`, {
          hostedZoneId: hostedZone.hostedZoneId,
          zoneName: hostedZone.zoneName.replace(/\.$/, ''),
        })
      : undefined;
    const certificate = certificateArn
      ? acm.Certificate.fromCertificateArn(scope, `${id}Certificate`, certificateArn)
      : new acm.Certificate(scope, `${id}Certificate`, {
          domainName: props.domainName,
          validation: acm.CertificateValidation.fromDns(zone),
        });
    super(scope, id, {
      ...domainProps,
      certificate,
      endpointType: apigw.EndpointType.REGIONAL,
      securityPolicy: domainProps.securityPolicy ?? apigw.SecurityPolicy.TLS_1_2,
    });
    this.certificate = certificate;
    this.host = props.domainName;
    this.url = `https://${props.domainName}`;
    if (zone)
      this.record = new route53.ARecord(this, 'Alias', {
        zone,
        recordName: props.domainName,
        target: route53.RecordTarget.fromAlias(
          new targets.ApiGatewayv2DomainProperties(this.regionalDomainName, this.regionalHostedZoneId),
        ),
      });
  }

  /** Serves an HTTP API stage at the root of the domain. */
  mapHttpApi(api: apigw.IHttpApi, stage: apigw.IHttpStage): apigw.ApiMapping {
    return new apigw.ApiMapping(this, 'Mapping', { api, domainName: this, stage });
  }

  /** Serves a REST API stage at the root of the domain (an API Gateway v2 API mapping, which REST APIs accept). */
  mapRestApi(api: rest.IRestApi, stage: rest.Stage): apigw.CfnApiMapping {
    const mapping = new apigw.CfnApiMapping(this, 'Mapping', {
      apiId: api.restApiId,
      domainName: this.name,
      stage: stage.stageName,
    });
    // The stage must exist before it is mapped.
    mapping.node.addDependency(stage);
    return mapping;
  }
}
