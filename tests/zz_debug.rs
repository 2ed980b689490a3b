use fastframe::prelude::*;
#[test]
fn dump() {
    let scene = std::env::var("SCENE").unwrap_or("scenes/deferred.ron".into());
    let mut rt = Runtime::from_scene(&scene).unwrap();
    if std::env::var("OFF").is_ok() {
        rt.settings_mut().async_compute = false;
    }
    rt.world.resource_mut::<RunStats>().keep_timeline = true;
    rt.run(12).unwrap();
    let s = rt.summary();
    let dev = rt.device();
    let mut tl: Vec<_> = s
        .stats
        .timeline
        .iter()
        .filter(|x| x.frame == 10)
        .cloned()
        .collect();
    tl.sort_by_key(|x| (x.start_ns, x.queue.index()));
    let t0 = tl.first().map(|x| x.start_ns).unwrap_or(0);
    for x in tl {
        println!(
            "{:>10} {:>9} {:>9} {:12} {:20} {:18} stall {:?} {} cache {} dec {} path {}",
            x.queue.to_string(),
            (x.start_ns - t0),
            x.end_ns - t0,
            x.end_ns - x.start_ns,
            dev.label_name(x.label),
            x.name,
            x.stall,
            x.stall_ns,
            x.cache_ns,
            x.decompress_ns,
            x.path_ns
        );
    }
}
