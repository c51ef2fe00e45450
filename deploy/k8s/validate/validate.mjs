// Validates every object the Kustomization lists against the Kubernetes API schema of its kind, with
// no cluster: the schemas ship in the kubernetes-models package. Exits non-zero naming each problem.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const kustomization = parseAllDocuments(readFileSync(join(root, "kustomization.yaml"), "utf8"))[0].toJS();

function modelPath(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const folder = group === "" ? version : `${group === "apps" ? "apps" : group}/${version}`;
  return `kubernetes-models/${folder}/${kind}`;
}

let problems = 0;
let checked = 0;
for (const file of kustomization.resources) {
  for (const doc of parseAllDocuments(readFileSync(join(root, file), "utf8"))) {
    if (doc.errors.length) {
      console.error(`${file}: YAML error: ${doc.errors[0].message}`);
      problems++;
      continue;
    }
    const object = doc.toJS();
    if (!object) continue;
    const where = `${file}: ${object.kind}/${object.metadata?.name}`;
    try {
      const module = await import(modelPath(object.apiVersion, object.kind));
      const Model = module[object.kind] ?? module.default;
      new Model(object).validate();
      checked++;
    } catch (error) {
      console.error(`${where}: ${error.message}`);
      problems++;
    }
  }
}
for (const image of kustomization.images ?? []) {
  if (!image.name || !image.newTag) {
    console.error(`kustomization.yaml: image entry needs name and newTag: ${JSON.stringify(image)}`);
    problems++;
  }
}
// The manifests must run what `./toolsmith compose-test` proved with docker-compose.yml: per service the same
// image, port, readiness path and user as the image recipe, and every environment variable compose sets reaches
// the pod (its env, the ConfigMap, or a Secret it reads whose creation command in config.yaml names the key).
// Known differences are listed in deploy/k8s/README.md ("Compared with docker-compose.yml").
const repo = join(root, "..", "..");
const compose = parseAllDocuments(readFileSync(join(repo, "docker-compose.yml"), "utf8"), { merge: true })[0].toJS();
const serviceRecipe = readFileSync(join(repo, "deploy/docker/Dockerfile.service"), "utf8");
const accessRecipe = readFileSync(join(repo, "deploy/docker/Dockerfile.kafka-access"), "utf8");
const recipeUser = (recipe) => Number(/^USER (\d+)/m.exec(recipe)?.[1]);
const readyPath = /HEALTHCHECK[\s\S]*?(\/q\/health\/ready)/.exec(serviceRecipe)?.[1];
const configText = readFileSync(join(root, "config.yaml"), "utf8");
const configMapKeys = new Set();
const secretKeys = new Map();
for (const chunk of configText.split(/^---$/m)) {
  const object = parseAllDocuments(chunk)[0]?.toJS();
  if (object?.kind === "ConfigMap") Object.keys(object.data ?? {}).forEach((key) => configMapKeys.add(key));
  if (object?.kind === "Secret") {
    const keys = new Set(Object.keys(object.stringData ?? {}));
    for (const match of chunk.matchAll(/--from-literal=([A-Z0-9_]+)=/g)) keys.add(match[1]);
    secretKeys.set(object.metadata.name, keys);
  }
}
const tagOf = (image) => /:\$\{[A-Z_]+:-([^}]+)\}$/.exec(image)?.[1] ?? image.split(":")[1];
function compare(name, pod, where, recipeUserId) {
  const service = compose.services?.[name];
  const problem = (message) => { console.error(`${where}: ${message}`); problems++; };
  if (!service) return problem(`no service ${name} in docker-compose.yml`);
  const container = pod.containers[0];
  const [composeRepo] = service.image.split(":");
  if (container.image !== composeRepo) problem(`image ${container.image}, compose runs ${composeRepo}`);
  const pinned = (kustomization.images ?? []).find((image) => image.name === composeRepo)?.newTag;
  if (pinned !== tagOf(service.image)) problem(`tag ${pinned}, compose's default is ${tagOf(service.image)}`);
  if (pod.securityContext?.runAsUser !== recipeUserId) problem(`runAsUser ${pod.securityContext?.runAsUser}, the image's USER is ${recipeUserId}`);
  const env = new Map((container.env ?? []).map((variable) => [variable.name, variable.value]));
  const composeEnv = service.environment ?? {};
  if (composeEnv.QUARKUS_HTTP_PORT !== undefined) {
    if (env.get("QUARKUS_HTTP_PORT") !== composeEnv.QUARKUS_HTTP_PORT) problem(`QUARKUS_HTTP_PORT ${env.get("QUARKUS_HTTP_PORT")}, compose ${composeEnv.QUARKUS_HTTP_PORT}`);
    if (String(container.ports?.[0]?.containerPort) !== composeEnv.QUARKUS_HTTP_PORT) problem(`containerPort ${container.ports?.[0]?.containerPort}, compose ${composeEnv.QUARKUS_HTTP_PORT}`);
    if (container.readinessProbe?.httpGet?.path !== readyPath) problem(`readiness ${container.readinessProbe?.httpGet?.path}, the image's health check ${readyPath}`);
  }
  const reachable = new Set(env.keys());
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef?.name === "toolsmith-config") configMapKeys.forEach((key) => reachable.add(key));
    (secretKeys.get(source.secretRef?.name) ?? []).forEach((key) => reachable.add(key));
  }
  for (const key of Object.keys(composeEnv)) {
    if (!reachable.has(key)) problem(`${key}, set by docker-compose.yml, reaches no ${name} container`);
  }
}
for (const file of kustomization.resources) {
  for (const doc of parseAllDocuments(readFileSync(join(root, file), "utf8"))) {
    const object = doc.toJS();
    if (object?.kind === "Deployment") {
      compare(object.metadata.name, object.spec.template.spec, `${file}: Deployment/${object.metadata.name}`, recipeUser(serviceRecipe));
    } else if (object?.kind === "Job") {
      compare(object.metadata.name, object.spec.template.spec, `${file}: Job/${object.metadata.name}`, recipeUser(accessRecipe));
    }
  }
}
if (problems) {
  console.error(`${problems} problem(s) in deploy/k8s`);
  process.exit(1);
}
console.log(`deploy/k8s: ${checked} objects valid against the Kubernetes API schemas, and matching docker-compose.yml`);
