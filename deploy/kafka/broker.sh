# The properties of Toolsmith's single-node KRaft broker, shared by deploy/local/kafka-start.sh and the
# kafka service of docker-compose.yml (deploy/kafka/run-in-container.sh), so both run the same security.
# shellcheck shell=bash
#
# Authentication: SASL/SCRAM-SHA-512 on the client listener (CLIENT), over SASL_PLAINTEXT: passwords never
# cross the wire, but the traffic is not encrypted; TLS (SASL_SSL) is an operator's addition. The controller
# listener takes SASL/PLAIN with one static user, the admin: KRaft keeps SCRAM credentials in the metadata
# log, which the controller must be able to serve before any SCRAM user exists. Authorization: the KRaft
# StandardAuthorizer, nothing allowed without an ACL; the admin (the broker's own principal too) is the
# only super user. Principals and ACLs: deploy/kafka/KafkaAccess.java.
#
#   kafka_broker_properties LISTEN_HOST ADVERTISED_HOST PORT CONTROLLER_HOST CONTROLLER_PORT LOG_DIR ADMIN_USER ADMIN_PASSWORD
kafka_broker_properties() {
  local listen="$1" advertised="$2" port="$3" chost="$4" cport="$5" logdir="$6" admin="$7" password="$8"
  case "$admin$password" in
    *'"'*|*'\'*|*' '*) echo "the Kafka admin user and password may not contain quotes, backslashes or spaces" >&2; return 1 ;;
  esac
  cat <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$chost:$cport
listeners=CLIENT://$listen:$port,CONTROLLER://$listen:$cport
advertised.listeners=CLIENT://$advertised:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=CLIENT
listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$admin" password="$password";
sasl.mechanism.controller.protocol=PLAIN
listener.name.controller.sasl.enabled.mechanisms=PLAIN
listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$admin" password="$password" user_$admin="$password";
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:$admin
allow.everyone.if.no.acl.found=false
log.dirs=$logdir
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
# The log cleaner's offset map lives on the heap (128 MB by default): in a 512 MB heap it kept G1 starting a
# marking cycle every other young collection. 16 MB cleans the small compacted topics of one machine.
log.cleaner.dedupe.buffer.size=16777216
PROPS
}

# The admin's SCRAM credential, written into the metadata log when the storage is formatted: the one user that
# exists before the broker runs; KafkaAccess creates the others.
kafka_format_scram() {
  printf 'SCRAM-SHA-512=[name=%s,password=%s]' "$1" "$2"
}
