use fastframe::scene::*;
#[test]
fn t() {
    let d = EntityDef { name: "a\"b".into(), buffer: Some(fastframe::model::Buffer{size: 4, usage: Default::default(), unordered_access: false}), ..Default::default() };
    let c = ron::ser::PrettyConfig::new().depth_limit(0);
    println!("[{}]", ron_options().to_string_pretty(&d, c.clone()).unwrap());
    println!("[{}]", ron_options().to_string_pretty(&vec!["x".to_string()], c.clone()).unwrap());
    println!("[{}]", ron_options().to_string_pretty(&fastframe::model::Settings::default(), c.clone()).unwrap());
    println!("[{}]", ron_options().to_string_pretty(&Vec::<String>::new(), c.clone()).unwrap());
}
