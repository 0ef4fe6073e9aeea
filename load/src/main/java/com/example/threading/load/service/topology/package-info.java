/**
 * The documented deployment rebuilt without Docker, part of the target layer: the compose file read as Docker would
 * ({@link com.example.threading.load.service.topology.ComposeFile}), the service's image built from the Dockerfile as
 * written ({@link com.example.threading.load.service.topology.ContainerImage}), a private network of one namespace per
 * service ({@link com.example.threading.load.service.topology.Network}), each service's program started on its host
 * (Redis and HAProxy as processes, {@link com.example.threading.load.service.topology.HostProcess}; the instances as
 * containers of the image, {@link com.example.threading.load.service.topology.Container}) and the whole
 * ({@link com.example.threading.load.service.topology.Topology}) with its faults (kill, Redis cut, degraded link
 * {@link com.example.threading.load.service.topology.LinkFault}, Redis restart), the balancer's view of its servers
 * ({@link com.example.threading.load.service.topology.HaproxyStats}), and what the machine must have
 * ({@link com.example.threading.load.service.topology.Prerequisites}).
 *
 * <p>Every address it uses is inside the namespaces it creates (this tool reaches them through the bridge's address);
 * every name starts with {@code tp<pid>}; everything is removed on close, by a shutdown hook, and, for a run killed
 * outright, by the next run.
 *
 * <p>May depend on: {@code service} (its child-process helpers); nothing above the target layer.
 */
package com.example.threading.load.service.topology;
